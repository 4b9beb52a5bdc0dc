package com.telemed.gateway.edge;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The limits on anonymous embed submissions: a token bucket per partner (its publishable key) and
 * one per client address within that partner, so a visitor flooding one partner's form is stopped
 * at their address, a partner's whole traffic at its own quota, and no partner's traffic ever
 * spends another's. Buckets live in this gateway process, in bounded caches (a bucket idle for a
 * whole window is full again, so forgetting it changes nothing); with several gateway replicas each
 * enforces its own share, which a platform team sizes with the replica count.
 *
 * <p>Answers are described with the IETF RateLimit header fields
 * (draft-ietf-httpapi-ratelimit-headers): {@code RateLimit-Policy} names both policies, quota
 * {@code q} per window {@code w} seconds; {@code RateLimit} gives the policy nearest its end,
 * remaining {@code r} and seconds {@code t} until it is full again (on a refusal, until the next
 * submission is allowed, as {@code Retry-After}).
 */
@ApplicationScoped
public class SubmissionLimits {

    static final String PARTNER = "partner";
    static final String ADDRESS = "address";

    /** What the gateway answers with: allowed or not, the two header values, and {@code Retry-After} when refused. */
    public record Verdict(boolean allowed, String policy, String state, long retryAfterSeconds) {
    }

    private final GatewayConfig.EmbedLimits limits;
    private final Cache<String, Bucket> partners;
    private final Cache<String, Bucket> addresses;
    private final String policy;

    public SubmissionLimits(GatewayConfig config) {
        this.limits = config.embedLimits();
        Duration idle = limits.window();
        this.partners = Caffeine.newBuilder().expireAfterAccess(idle).build();
        this.addresses = Caffeine.newBuilder().expireAfterAccess(idle).maximumSize(limits.trackedAddresses()).build();
        long window = limits.window().toSeconds();
        this.policy = "\"" + ADDRESS + "\";q=" + limits.perAddress() + ";w=" + window + ", \"" + PARTNER + "\";q="
                + limits.perPartner() + ";w=" + window;
    }

    /** Takes one submission of {@code partnerId}'s visitor at {@code address}, or says why not and for how long. */
    public Verdict take(String partnerId, String address) {
        Bucket byAddress = addresses.get(partnerId + ' ' + address, key -> bucket(limits.perAddress()));
        ConsumptionProbe fromAddress = byAddress.tryConsumeAndReturnRemaining(1);
        if (!fromAddress.isConsumed()) {
            return refused(ADDRESS, fromAddress);
        }
        Bucket byPartner = partners.get(partnerId, key -> bucket(limits.perPartner()));
        ConsumptionProbe fromPartner = byPartner.tryConsumeAndReturnRemaining(1);
        if (!fromPartner.isConsumed()) {
            // Not made: the visitor's own quota is not spent on it.
            byAddress.addTokens(1);
            return refused(PARTNER, fromPartner);
        }
        boolean addressNearer = fromAddress.getRemainingTokens() * limits.perPartner()
                <= fromPartner.getRemainingTokens() * limits.perAddress();
        return addressNearer
                ? new Verdict(true, policy, state(ADDRESS, fromAddress.getRemainingTokens(), limits.perAddress()), 0)
                : new Verdict(true, policy, state(PARTNER, fromPartner.getRemainingTokens(), limits.perPartner()), 0);
    }

    private Verdict refused(String name, ConsumptionProbe probe) {
        long seconds = Math.max(1, seconds(probe.getNanosToWaitForRefill()));
        return new Verdict(false, policy, "\"" + name + "\";r=0;t=" + seconds, seconds);
    }

    /** Remaining and the seconds until the bucket is full again (one token every window / quota). */
    private String state(String name, long remaining, long quota) {
        long missing = quota - remaining;
        long nanos = limits.window().toNanos() / quota * missing;
        return "\"" + name + "\";r=" + remaining + ";t=" + seconds(nanos);
    }

    private Bucket bucket(long quota) {
        return Bucket.builder().addLimit(limit -> limit.capacity(quota).refillGreedy(quota, limits.window())).build();
    }

    private static long seconds(long nanos) {
        return (nanos + TimeUnit.SECONDS.toNanos(1) - 1) / TimeUnit.SECONDS.toNanos(1);
    }
}
