package com.telemed.requests.catalogue;

import com.telemed.requests.remote.RemoteCalls;
import com.telemed.requests.remote.RemoteConfig;
import com.telemed.common.error.ApiException;
import com.telemed.common.trust.ServiceProofSigner;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import java.net.URI;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** The one way requests-service reads the catalogue: drug, SKUs, access and pharmacy for a partner. */
@ApplicationScoped
public class CatalogueClient {

    private static final String SERVICE = "catalogue-service";

    private final CatalogueApi api;
    private final RemoteCalls calls;

    public CatalogueClient(RemoteConfig config, RemoteCalls calls, ServiceProofSigner signer) {
        this.calls = calls;
        this.api = QuarkusRestClientBuilder.newBuilder()
                .baseUri(URI.create(config.catalogueUrl()))
                .connectTimeout(config.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(config.readTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .register(signer)
                .build(CatalogueApi.class);
    }

    /** The drug as the partner sees it, or empty when no such drug exists. */
    public Optional<DrugLookup> lookup(String partnerId, String drugId) {
        try {
            return Optional.of(calls.call(SERVICE, "drug lookup", () -> api.lookup(drugId, partnerId)));
        } catch (WebApplicationException e) {
            if (e.getResponse().getStatus() == 404) {
                return Optional.empty();
            }
            throw new ApiException(503, "Service Unavailable");
        }
    }
}
