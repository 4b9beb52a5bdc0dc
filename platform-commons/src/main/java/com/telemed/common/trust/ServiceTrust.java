package com.telemed.common.trust;

import io.quarkus.runtime.Startup;
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

    public ServiceProof.Signature sign(String method, String target, String partnerId) {
        return proof.sign(method, target, partnerId);
    }

    public ServiceProof.Verdict verify(String method, String target, String partnerId, String timestamp, String proofHeader) {
        return proof.verify(method, target, partnerId, timestamp, proofHeader);
    }
}
