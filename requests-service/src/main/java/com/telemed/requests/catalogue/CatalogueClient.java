package com.telemed.requests.catalogue;

import com.telemed.common.remote.Answers;
import com.telemed.common.remote.RemoteCalls;
import com.telemed.common.remote.RemoteService;
import com.telemed.common.remote.ServiceUrls;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import java.util.Optional;

/**
 * The one way requests-service reads the catalogue: drug, SKUs, access and pharmacy for a partner. From
 * the service's own copy ({@link CatalogueCopy}) once it is synced; from catalogue-service when it is not
 * yet, and for a drug the copy does not have (one created an instant ago, or none at all).
 */
@ApplicationScoped
public class CatalogueClient {

    /** No such drug. */
    private static final Answers NOT_FOUND = Answers.of(404);

    private final CatalogueApi api;
    private final RemoteService catalogue;
    private final RemoteService snapshots;
    private final CatalogueCopy copy;

    public CatalogueClient(ServiceUrls urls, RemoteCalls calls, CatalogueCopy copy) {
        this.api = calls.client(CatalogueApi.class, urls.of("catalogue-service"));
        this.catalogue = calls.service("catalogue-service");
        // A breaker of its own: a failing background sync never opens the one of the creates' lookups.
        this.snapshots = calls.service("catalogue-service snapshot");
        this.copy = copy;
    }

    /** The drug as the partner sees it, or empty when no such drug exists. */
    public Optional<DrugLookup> lookup(String partnerId, String drugId) {
        return lookup(partnerId, drugId, copy.synced() ? copy.lookup(partnerId, drugId) : Optional.empty());
    }

    /**
     * {@link #lookup(String, String)} with the copy already read ({@code copied}: empty when the copy has no
     * such drug or is not synced): the drug asked of catalogue-service when the copy did not have it.
     */
    public Optional<DrugLookup> lookup(String partnerId, String drugId, Optional<DrugLookup> copied) {
        if (copied.isPresent()) {
            return copied;
        }
        try {
            return Optional.of(catalogue.call("drug lookup", NOT_FOUND, () -> api.lookup(drugId, partnerId)));
        } catch (WebApplicationException notFound) {
            return Optional.empty();
        }
    }

    /**
     * The whole catalogue with its versions, for {@link CatalogueCopySync}; a 404 (a catalogue-service
     * without the endpoint yet) comes back as the {@link WebApplicationException}, not counted as unavailable.
     */
    CatalogueChanges.Snapshot snapshot() {
        return snapshots.call("catalogue snapshot", NOT_FOUND, api::snapshot);
    }
}
