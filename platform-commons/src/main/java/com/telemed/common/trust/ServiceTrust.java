package com.telemed.common.trust;

import com.telemed.common.access.Principal;
import com.telemed.common.partner.PartnerContext;
import io.quarkus.runtime.Startup;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.List;

/**
 * The deployment's {@link ServiceProof}, built at startup so that a missing or short key stops the
 * service before it serves anything. Signs the calls this service makes ({@link ServiceProofSigner},
 * the gateway's proxy) and checks the calls it receives ({@link ServiceProofCheck}).
 */
@Startup
@Singleton
public class ServiceTrust {

    private final ServiceProof proof;

    public ServiceTrust(TrustConfig config) {
        this.proof = new ServiceProof(config.key().orElse(List.of()), config.maxSkew(), Clock.systemUTC());
    }

    /** A call without a principal: {@code sign(method, target, partnerId, null)}. */
    public ServiceProof.Signature sign(String method, String target, String partnerId) {
        return proof.sign(method, target, partnerId, null);
    }

    /** A call carrying {@code principal} as its {@link Principal#HEADER} (null: none). */
    public ServiceProof.Signature sign(String method, String target, String partnerId, String principal) {
        return proof.sign(method, target, partnerId, principal);
    }

    public ServiceProof.Verdict verify(String method, String target, String partnerId, String principal, String timestamp,
            String proofHeader) {
        return proof.verify(method, target, partnerId, principal, timestamp, proofHeader);
    }

    /**
     * The verdict on a received call: its proof headers, one of each (a second partner or principal
     * header would be read where the signed one was not), checked against its method, target, partner
     * and principal. A principal the proof was not made with (added, dropped or changed) is an invalid proof.
     */
    public ServiceProof.Verdict verify(HttpServerRequest request) {
        List<String> timestamps = request.headers().getAll(ServiceProof.TIMESTAMP_HEADER);
        List<String> proofs = request.headers().getAll(ServiceProof.PROOF_HEADER);
        List<String> partners = request.headers().getAll(PartnerContext.HEADER);
        List<String> principals = request.headers().getAll(Principal.HEADER);
        if (timestamps.isEmpty() || proofs.isEmpty()) {
            return ServiceProof.Verdict.MISSING;
        }
        if (timestamps.size() > 1 || proofs.size() > 1 || partners.size() > 1 || principals.size() > 1) {
            return ServiceProof.Verdict.MALFORMED;
        }
        return verify(request.method().name(), request.uri(), partners.isEmpty() ? null : partners.get(0),
                principals.isEmpty() ? null : principals.get(0), timestamps.get(0), proofs.get(0));
    }
}
