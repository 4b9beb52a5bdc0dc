package com.telemed.bench.fulfilment;

import com.telemed.bench.support.Machine;
import com.telemed.bench.support.Results;
import com.telemed.bench.support.ServiceLog;
import com.telemed.requests.fulfilment.FulfilmentConfig;
import com.telemed.requests.pharmacy.PharmacyConfig;
import io.smallrye.config.WithDefault;

/**
 * What {@link FulfilmentBench} prints and keeps: each round of {@link DueAtOnce}, the summary of the platform's round
 * beside the ceiling ({@link PharmacyCeiling}), the figures in {@link Results}, and the dispatcher's settings
 * (requests-service's defaults, read from {@link FulfilmentConfig}'s {@code @WithDefault}s).
 */
final class FulfilmentReport {

    static final int PARALLEL_CLIENTS = 16;

    private FulfilmentReport() {
    }

    static void print(DueAtOnce.Round round) {
        System.out.printf("%s: %d items transmitted in %.2f s after the UPDATE's commit (last seen pharmacy_sent by the poll)"
                        + " = %.0f items/s; pharmacy: first order at %.3f s, last at %.3f s; last pharmacy_sent_at - due time"
                        + " (database clock) %.3f s%n", round.name(), round.items(), round.seconds(), round.perSecond(),
                round.pharmacyFirst(), round.pharmacyLast(), round.dbLast());
        System.out.println("   checks: " + (round.problems().isEmpty()
                ? "every item exactly once at the pharmacy (Idempotency-Key = orderReference, keys = the items), every item"
                + " pharmacy_sent with an order id of its own, its record sent_to_pharmacy, one sent_to_pharmacy history entry"
                : "FAILED: " + String.join("; ", round.problems())));
        System.out.println("   CPU: " + round.cpu());
        System.out.println("   " + round.quiet());
        round.logs().forEach((service, summary) -> System.out.println("   " + service + " log: " + summary.describe(8)));
    }

    static void summary(DueAtOnce.Round platformRound, PharmacyCeiling.Result sequential, PharmacyCeiling.Result parallel) {
        System.out.printf("%n== Summary (%d cores, %s)%n", Machine.cores(), Machine.loadAverage());
        System.out.printf("items %d, replicas 2; dispatcher per replica: %s%n", platformRound.items(), settings());
        System.out.printf("platform, scheduled items due at once:  %6.2f s to the last transmitted  %6.0f items/s%s%n",
                platformRound.seconds(), platformRound.perSecond(), platformRound.problems().isEmpty() ? "" : "  (CHECKS FAILED)");
        System.out.printf("ceiling, one client, one connection:    %6.2f s                         %6.0f orders/s%n",
                sequential.seconds(), sequential.perSecond());
        System.out.printf("for context, %d concurrent clients:     %6.2f s                         %6.0f orders/s%n",
                PARALLEL_CLIENTS, parallel.seconds(), parallel.perSecond());
        System.out.printf("ratio (one client's time / the platform's) = %.3f: the platform transmits at %.1f %% of one client's"
                        + " rate (%.1f %% of %d clients')%n", sequential.seconds() / platformRound.seconds(),
                100 * sequential.seconds() / platformRound.seconds(), 100 * parallel.seconds() / platformRound.seconds(), PARALLEL_CLIENTS);
        System.out.println("measured round: " + platformRound.quiet());
        System.out.printf("requests-service (both replicas) logged %d ERROR and %d WARN lines during the measured round%n",
                errors(platformRound), warnings(platformRound));
    }

    /**
     * The summary's figures, kept: {@code measured.*} (the platform's round), {@code ceiling.oneClient.*},
     * {@code ceiling.parallel.*}, the ratios, {@code log.*}. The headline: the platform's items/s, and its
     * ratio to one client's orders/s.
     */
    static void record(Results results, DueAtOnce.Round platformRound, PharmacyCeiling.Result sequential,
                       PharmacyCeiling.Result parallel) {
        String label = platformRound.items() + " scheduled items due at once, 2 replicas";
        results.headline("measured.perSecond", platformRound.perSecond(), "items/s", label);
        results.record("measured.seconds", platformRound.seconds(), "s", label + ", to the last transmitted");
        results.record("measured.pharmacyFirstSeconds", platformRound.pharmacyFirst(), "s", label + ", first order at the pharmacy");
        results.record("measured.pharmacyLastSeconds", platformRound.pharmacyLast(), "s", label + ", last order at the pharmacy");
        results.record("measured.lastSentAfterDueSeconds", platformRound.dbLast(), "s",
                label + ", last pharmacy_sent_at - due time (database clock)");
        results.record("measured.failedChecks", platformRound.problems().size(), "checks", label + ", checks failed");
        sequential.record(results, "ceiling.oneClient", "ceiling: one client, one connection");
        parallel.record(results, "ceiling.parallel", "for context: " + PARALLEL_CLIENTS + " concurrent clients");
        results.ceilingRatio("measured.ratioToCeiling", 100 * sequential.seconds() / platformRound.seconds(),
                "platform items/s / one client's orders/s");
        results.record("measured.ratioToParallel", 100 * parallel.seconds() / platformRound.seconds(), "%",
                "platform items/s / " + PARALLEL_CLIENTS + " clients' orders/s");
        results.record("log.errors", errors(platformRound), "lines", "requests-service ERROR lines (both replicas), measured round");
        results.record("log.warnings", warnings(platformRound), "lines", "requests-service WARN lines (both replicas), measured round");
    }

    /** The dispatcher's pace as requests-service's defaults set it. */
    static String settings() {
        return String.format("poll interval %s, batch %s, parallelism %s, claim lease %s; pharmacy timeout %s",
                withDefault(FulfilmentConfig.class, "pollInterval"), withDefault(FulfilmentConfig.class, "batchSize"),
                withDefault(FulfilmentConfig.class, "parallelism"), withDefault(FulfilmentConfig.class, "claimLease"),
                withDefault(PharmacyConfig.class, "timeout"));
    }

    private static long errors(DueAtOnce.Round round) {
        return round.logs().values().stream().mapToLong(ServiceLog.Summary::errors).sum();
    }

    private static long warnings(DueAtOnce.Round round) {
        return round.logs().values().stream().mapToLong(ServiceLog.Summary::warnings).sum();
    }

    private static String withDefault(Class<?> config, String method) {
        try {
            WithDefault value = config.getMethod(method).getAnnotation(WithDefault.class);
            return value == null ? "?" : value.value();
        } catch (NoSuchMethodException e) {
            return "?";
        }
    }
}
