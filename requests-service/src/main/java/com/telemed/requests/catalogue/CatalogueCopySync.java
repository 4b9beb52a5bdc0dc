package com.telemed.requests.catalogue;

import com.telemed.common.concurrent.Ticker;
import com.telemed.common.error.FailureLog;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * Brings the catalogue copy up to catalogue-service's state once per process start: its snapshot, applied
 * over whatever the copy holds (the version rule keeps the newer of each entry). Retried every
 * {@link CatalogueCopyConfig#syncRetry} until it succeeds. Covers a copy that starts empty and one whose consumer was away longer
 * than catalogue.events' retention; from then on the events keep it current ({@link CatalogueCopyConsumer}).
 *
 * <p>A copy synced by an earlier start (any replica) answers lookups at once; one never synced answers
 * none until this succeeds, and every lookup asks catalogue-service meanwhile.
 */
@ApplicationScoped
public class CatalogueCopySync {

    private static final Logger LOG = Logger.getLogger(CatalogueCopySync.class);

    private final CatalogueClient client;
    private final CatalogueCopy copy;
    private final CatalogueCopyConfig config;
    private final FailureLog failures = new FailureLog(LOG, "Catalogue copy sync");
    private final Ticker ticker;
    private volatile boolean done;

    public CatalogueCopySync(CatalogueClient client, CatalogueCopy copy, CatalogueCopyConfig config) {
        this.client = client;
        this.copy = copy;
        this.config = config;
        this.ticker = new Ticker("catalogue-copy-sync", config.syncRetry(), this::tick, failures::failing);
    }

    void start(@Observes StartupEvent started) {
        try {
            copy.syncedBefore();
        } catch (RuntimeException e) {
            failures.failed("database", "Reading whether the catalogue copy was synced failed", e);
        }
        if (config.syncOnStart()) {
            ticker.start();
        }
    }

    /** One attempt now, on the caller's thread; whether the copy is synced from this process's snapshot. */
    public boolean syncNow() {
        tick();
        return done;
    }

    void stop(@Observes ShutdownEvent stopping) throws InterruptedException {
        ticker.stop(Duration.ofSeconds(10));
    }

    /** Whether this process has applied a snapshot since it started. */
    public boolean done() {
        return done;
    }

    private synchronized void tick() {
        if (done) {
            return;
        }
        try {
            CatalogueChanges.Snapshot snapshot = client.snapshot();
            copy.apply(snapshot);
            copy.markSynced();
            done = true;
            failures.recovered("catalogue-service");
            LOG.infof("Catalogue copy synced: %d drugs, %d partners' access", snapshot.drugs().size(), snapshot.access().size());
        } catch (RuntimeException e) {
            failures.failed("catalogue-service", "Syncing the catalogue copy failed", e);
        }
    }
}
