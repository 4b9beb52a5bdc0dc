package com.telemed.common.trust;

import com.telemed.common.partner.PartnerContext;
import jakarta.inject.Singleton;
import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import java.net.URI;

/**
 * Signs a service-to-service call with the deployment's key: every REST client that calls another
 * platform service registers it ({@code QuarkusRestClientBuilder.register(signer)}); nothing else
 * does, so a proof never goes to a host outside the platform. The proof covers the method, the
 * request target as it is sent and the {@code X-Partner-Id} header the call carries (none: empty).
 */
@Singleton
public class ServiceProofSigner implements ClientRequestFilter {

    private final ServiceTrust trust;

    public ServiceProofSigner(ServiceTrust trust) {
        this.trust = trust;
    }

    @Override
    public void filter(ClientRequestContext request) {
        ServiceProof.Signature signature = trust.sign(request.getMethod(), target(request.getUri()),
                request.getHeaderString(PartnerContext.HEADER));
        request.getHeaders().putSingle(ServiceProof.TIMESTAMP_HEADER, signature.timestamp());
        request.getHeaders().putSingle(ServiceProof.PROOF_HEADER, signature.proof());
    }

    /** The request target of an absolute URI, as an HTTP/1.1 client sends it: raw path, then the raw query. */
    static String target(URI uri) {
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
    }
}
