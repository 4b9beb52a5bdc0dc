package com.telemed.requests.catalogue;

import com.telemed.common.remote.Answers;
import com.telemed.common.remote.RemoteCalls;
import com.telemed.common.remote.RemoteService;
import com.telemed.requests.remote.NeighbourUrls;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import java.util.Optional;

/** The one way requests-service reads the catalogue: drug, SKUs, access and pharmacy for a partner. */
@ApplicationScoped
public class CatalogueClient {

    /** No such drug. */
    private static final Answers NOT_FOUND = Answers.of(404);

    private final CatalogueApi api;
    private final RemoteService catalogue;

    public CatalogueClient(NeighbourUrls urls, RemoteCalls calls) {
        this.api = calls.client(CatalogueApi.class, urls.catalogueUrl());
        this.catalogue = calls.service("catalogue-service");
    }

    /** The drug as the partner sees it, or empty when no such drug exists. */
    public Optional<DrugLookup> lookup(String partnerId, String drugId) {
        try {
            return Optional.of(catalogue.call("drug lookup", NOT_FOUND, () -> api.lookup(drugId, partnerId)));
        } catch (WebApplicationException notFound) {
            return Optional.empty();
        }
    }
}
