package com.telemed.common.trust;

import com.telemed.common.access.Principal;
import com.telemed.common.partner.PartnerContext;
import jakarta.inject.Singleton;
import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import java.net.URI;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Signs a service-to-service call with the deployment's key: every REST client that calls another
 * platform service registers it ({@code QuarkusRestClientBuilder.register(signer)}); nothing else
 * does, so a proof never goes to a host outside the platform. The call acts as this service,
 * {@code X-Principal: service:<quarkus.application.name>} ({@link Principal#service}; whatever principal
 * the call had is replaced: a service never passes a person's on), and the proof covers the method,
 * the request target as it is sent, the {@code X-Partner-Id} header the call carries (none: empty)
 * and that principal.
 */
@Singleton
public class ServiceProofSigner implements ClientRequestFilter {

    private final ServiceTrust trust;
    private final String principal;

    public ServiceProofSigner(ServiceTrust trust, @ConfigProperty(name = "quarkus.application.name") String module) {
        this.trust = trust;
        this.principal = Principal.service(module).header();
    }

    @Override
    public void filter(ClientRequestContext request) {
        request.getHeaders().putSingle(Principal.HEADER, principal);
        ServiceProof.Signature signature = trust.sign(request.getMethod(), target(request.getUri()),
                request.getHeaderString(PartnerContext.HEADER), principal);
        request.getHeaders().putSingle(ServiceProof.TIMESTAMP_HEADER, signature.timestamp());
        request.getHeaders().putSingle(ServiceProof.PROOF_HEADER, signature.proof());
    }

    /** The request target of an absolute URI, as an HTTP/1.1 client sends it: raw path, then the raw query. */
    static String target(URI uri) {
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
    }
}
