package com.telemed.bench.billing;

import com.telemed.testkit.kafka.BillingEvents;
import com.telemed.testkit.kafka.TopicWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.AbstractList;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

/**
 * The events the billing benchmark publishes, as the owners' relays would (testkit's {@link BillingEvents} envelopes,
 * {@link TopicWriter}'s producer, each record under its owner's key), generated as they are sent, never all held:
 * <ul>
 *   <li>{@code member.created} on {@code member.events} for each of {@code members} members; one in
 *       {@code members / billable} is the partner under test's ({@code billable} of them), the others spread over
 *       {@value #OTHER_PARTNERS} other partners;</li>
 *   <li>one approval on {@code care.events} for each of the partner under test's members (so {@code billable} billable
 *       members), nine in ten {@code item.approved}, one in ten the legacy {@code request.approved}; every approval at a
 *       millisecond of its own over the last two years, in an order unrelated to the member ids and to the order
 *       they are published in, so the summary's sort by billing start is real work;</li>
 *   <li>for one in ten of those billable members a pause and a resumption ({@code member.status_changed} active ->
 *       paused a day after their approval, paused -> active a day later): a status timeline of three points, and
 *       still billable.</li>
 * </ul>
 * Every other member has no approval: in the ledger, never billable. Member ids are name-based UUIDs of their
 * number, so the expected summary is known without keeping the events.
 */
final class BillingData {

    static final int OTHER_PARTNERS = 99;
    private static final Duration SPREAD = Duration.ofDays(730);
    /** The newest approval: old enough that a resumption two days later is still in the past. */
    private static final Duration NEWEST = Duration.ofDays(10);

    final String partnerId;
    final int members;
    final int billable;
    final int stride;
    final int changed;
    private final Instant now;
    private final long spacingMs;
    private final int permutation;

    BillingData(String partnerId, int members, int billable, Instant now) {
        if (billable < 1 || members < billable) {
            throw new IllegalArgumentException("members (" + members + ") must be at least billable (" + billable + ") >= 1");
        }
        this.partnerId = partnerId;
        this.members = members;
        this.billable = billable;
        this.stride = members / billable;
        this.changed = billable / 10;
        this.now = now.truncatedTo(ChronoUnit.MILLIS);
        this.spacingMs = Math.max(1, SPREAD.toMillis() / billable);
        this.permutation = coprime(billable);
    }

    /** member.created, approvals, status changes (two per changed member). */
    long created() {
        return members;
    }

    long approvals() {
        return billable;
    }

    long statusChanges() {
        return 2L * changed;
    }

    long total() {
        return created() + approvals() + statusChanges();
    }

    long onMemberEvents() {
        return created() + statusChanges();
    }

    String breakdown() {
        return String.format("%,d events: %,d member.created (%,d members, %,d of them the partner under test's, the rest of %d"
                        + " other partners) + %,d approvals on care.events (%,d item.approved, %,d request.approved; one per"
                        + " member of the partner under test: %,d billable) + %,d member.status_changed (%,d of those members"
                        + " paused and resumed)", total(), created(), members, billable, OTHER_PARTNERS, approvals(),
                approvals() - legacyApprovals(), legacyApprovals(), billable, statusChanges(), changed);
    }

    private long legacyApprovals() {
        return (billable + 9) / 10;
    }

    static UUID memberId(int i) {
        return UUID.nameUUIDFromBytes(("bench-billing-member-" + i).getBytes(StandardCharsets.UTF_8));
    }

    /** The partner under test's j-th member is member number j * stride. */
    UUID billableMember(int j) {
        return memberId(j * stride);
    }

    /** The j-th billable member's approval: a millisecond of its own, ordered by a permutation of j. */
    Instant approvedAt(int j) {
        long rank = (long) j * permutation % billable;
        return now.minus(NEWEST).minusMillis(rank * spacingMs);
    }

    Instant firstApproval() {
        return now.minus(NEWEST).minusMillis((long) (billable - 1) * spacingMs);
    }

    Instant lastApproval() {
        return now.minus(NEWEST);
    }

    Set<String> billableIds() {
        Set<String> ids = new HashSet<>(billable * 2);
        for (int j = 0; j < billable; j++) {
            ids.add(billableMember(j).toString());
        }
        return ids;
    }

    /** Publishes every event, member.events first (creations, then the status changes), then care.events. */
    void publish(String bootstrapServers) {
        TopicWriter.publish(bootstrapServers, new AbstractList<>() {
            @Override
            public TopicWriter.Keyed get(int index) {
                return event(index).keyed();
            }

            @Override
            public int size() {
                return Math.toIntExact(total());
            }
        });
    }

    BillingEvents.Envelope event(int index) {
        if (index < members) {
            return created(index);
        }
        int k = index - members;
        if (k < statusChanges()) {
            int j = k / 2 * 10 + 5; // the changed members: j = 5, 15, 25, ...
            Instant approved = approvedAt(j);
            String member = billableMember(j).toString();
            return k % 2 == 0
                    ? BillingEvents.statusChanged(partnerId, member, "active", "paused", approved.plus(Duration.ofDays(1)))
                    : BillingEvents.statusChanged(partnerId, member, "paused", "active", approved.plus(Duration.ofDays(2)));
        }
        int j = Math.toIntExact(k - statusChanges());
        String member = billableMember(j).toString();
        return j % 10 == 0 ? BillingEvents.legacyApproved(partnerId, member, approvedAt(j))
                : BillingEvents.approved(partnerId, member, approvedAt(j));
    }

    private BillingEvents.Envelope created(int i) {
        boolean underTest = i % stride == 0 && i / stride < billable;
        String partner = underTest ? partnerId : "bench-other-" + String.format("%02d", 1 + Math.floorMod(i * 2654435761L, OTHER_PARTNERS));
        String first = FIRST[Math.floorMod(i * 40503L + 12345, FIRST.length)];
        String last = LAST[Math.floorMod(i * 97L + 13, LAST.length)];
        Instant at = underTest ? approvedAt(i / stride).minus(Duration.ofDays(3))
                : now.minus(SPREAD).minus(NEWEST).plusMillis((long) i * spacingMs / Math.max(1, stride));
        return BillingEvents.created(partner, memberId(i).toString(), first, last,
                first.toLowerCase() + "." + last.toLowerCase() + "." + i + "@example.com", at);
    }

    /** The smallest multiplier of at least 7,919 with no factor in common with n: j -> j * m mod n permutes 0..n-1. */
    private static int coprime(int n) {
        int m = 7919;
        while (gcd(m, n) != 1) {
            m++;
        }
        return m % Math.max(1, n) == 0 ? 1 : m;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    private static final String[] FIRST = {"James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda",
            "William", "Elizabeth", "David", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles",
            "Karen", "Wei", "Priya", "Ahmed", "Sofia", "Mateo", "Yuki", "Olga", "Kwame", "Fatima", "Lars"};
    private static final String[] LAST = {"Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis",
            "Rodriguez", "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore",
            "Jackson", "Martin", "Lee", "Perez", "Thompson", "White", "Harris", "Okafor", "Nguyen", "Patel", "Kim", "Rossi"};
}
