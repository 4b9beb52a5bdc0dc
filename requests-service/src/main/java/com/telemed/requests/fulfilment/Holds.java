package com.telemed.requests.fulfilment;

import com.telemed.requests.member.MemberRecord;
import com.telemed.requests.pharmacy.PharmacyAdapter;
import com.telemed.requests.pharmacy.Pharmacies;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * What an approved item must clear before its order goes to the pharmacy (partner-api.md, send-to-pharmacy;
 * operations-api.md, "Pharmacy integration"): six holds, each a named rule ({@link Hold}), checked in their order
 * with no transaction open; the first that applies refuses the transmission with its {@link Refusal} (a hold the
 * dispatcher tries again, or a failure for a person). A rule that needs a neighbour asks it only when every rule
 * before it passed: no member is read for an item without a record or a pharmacy, no message is asked about for a
 * paused member. No bean: {@link Transmissions} holds one, with its neighbours.
 */
final class Holds {

    private static final Logger LOG = Logger.getLogger(Holds.class);

    /**
     * What the holds ask of requests-service's neighbours; a {@link RuntimeException} is the neighbour not answering
     * ({@code hold_check_unavailable}).
     */
    interface Neighbours {

        /** The member as members-service has it now; empty when it no longer knows them. */
        Optional<MemberRecord> member(String partnerId, UUID memberId);

        /** Whether the patient sent a message since {@code since} that no prescriber has read (messaging-service). */
        boolean unreadFromPatientSince(String partnerId, UUID memberId, Instant since);
    }

    /** An item's case as the rules see it: the claimed item, where its order would go, and the member once read. */
    static final class Case {

        final Transmissions.Claimed claimed;
        final Pharmacies.Route route;
        MemberRecord member;

        Case(Transmissions.Claimed claimed, Pharmacies.Route route) {
            this.claimed = claimed;
            this.route = route;
        }
    }

    /** The holds, in the order they are checked. */
    enum Hold {

        /** An approval signs a record; an item without one has nothing to send. */
        PRESCRIPTION_RECORD {
            @Override
            Optional<Refusal> check(Case item, Neighbours neighbours) {
                return item.claimed.record() == null
                        ? refused(Refusal.Code.NO_PRESCRIPTION_RECORD, "the item has no prescription record") : none();
            }
        },
        /** The drug names a pharmacy ({@code method} other than {@code none}). */
        PHARMACY {
            @Override
            Optional<Refusal> check(Case item, Neighbours neighbours) {
                return item.route instanceof Pharmacies.NoPharmacy
                        ? refused(Refusal.Code.NO_PHARMACY, "drug " + item.claimed.drugId() + " has no pharmacy") : none();
            }
        },
        /** The record still matches the digest signed with it. */
        RECORD_DIGEST {
            @Override
            Optional<Refusal> check(Case item, Neighbours neighbours) {
                if (item.claimed.record().intact()) {
                    return none();
                }
                LOG.errorf("Prescription record %s of item %s no longer matches its signed digest: not transmitted",
                        item.claimed.record().prescription().recordId(), item.claimed.itemId());
                return refused(Refusal.Code.RECORD_DIGEST_MISMATCH, "the prescription record no longer matches its signed digest");
            }
        },
        /** members-service still has the member, neither paused nor cancelled; the order ships to them. */
        MEMBER {
            @Override
            Optional<Refusal> check(Case item, Neighbours neighbours) {
                Optional<MemberRecord> member;
                try {
                    member = neighbours.member(item.claimed.partnerId(), item.claimed.memberId());
                } catch (RuntimeException unavailable) {
                    return refused(Refusal.Code.HOLD_CHECK_UNAVAILABLE, "members-service did not answer");
                }
                if (member.isEmpty()) {
                    return refused(Refusal.Code.MEMBER_NOT_FOUND, "the member no longer exists");
                }
                if ("paused".equals(member.get().status())) {
                    return refused(Refusal.Code.MEMBER_PAUSED, "member is paused");
                }
                if ("cancelled".equals(member.get().status())) {
                    return refused(Refusal.Code.MEMBER_CANCELLED, "member is cancelled");
                }
                item.member = member.get();
                return none();
            }
        },
        /** No message from the patient since the approval waits for a prescriber. */
        UNREAD_MESSAGE {
            @Override
            Optional<Refusal> check(Case item, Neighbours neighbours) {
                boolean unread;
                try {
                    unread = neighbours.unreadFromPatientSince(item.claimed.partnerId(), item.claimed.memberId(),
                            item.claimed.record().prescription().issuedAt());
                } catch (RuntimeException unavailable) {
                    return refused(Refusal.Code.HOLD_CHECK_UNAVAILABLE, "messaging-service did not answer");
                }
                return unread ? refused(Refusal.Code.UNREAD_PATIENT_MESSAGE,
                        "the patient sent a message since approval that no prescriber has read") : none();
            }
        },
        /** This deployment has an integration for the drug's pharmacy method. */
        PHARMACY_CONFIGURED {
            @Override
            Optional<Refusal> check(Case item, Neighbours neighbours) {
                return item.route instanceof Pharmacies.NotConfigured notConfigured
                        ? refused(Refusal.Code.PHARMACY_NOT_CONFIGURED,
                                "no pharmacy integration is configured for " + notConfigured.method())
                        : none();
            }
        };

        /** The rule's refusal, or empty when the item clears it. */
        abstract Optional<Refusal> check(Case item, Neighbours neighbours);
    }

    /** What the holds came to. */
    sealed interface Verdict {
    }

    /** Every hold cleared: the order goes through {@code adapter}, to {@code member}. */
    record Clear(MemberRecord member, PharmacyAdapter adapter) implements Verdict {
    }

    /** The first hold that applied. */
    record Held(Hold hold, Refusal refusal) implements Verdict {
    }

    private final Neighbours neighbours;

    Holds(Neighbours neighbours) {
        this.neighbours = neighbours;
    }

    /** Every hold in turn, until one refuses. */
    Verdict check(Transmissions.Claimed claimed, Pharmacies.Route route) {
        Case item = new Case(claimed, route);
        for (Hold hold : Hold.values()) {
            Optional<Refusal> refusal = hold.check(item, neighbours);
            if (refusal.isPresent()) {
                return new Held(hold, refusal.get());
            }
        }
        return new Clear(item.member, ((Pharmacies.Through) route).adapter());
    }

    private static Optional<Refusal> refused(Refusal.Code code, String reason) {
        return Optional.of(new Refusal(code, reason));
    }

    private static Optional<Refusal> none() {
        return Optional.empty();
    }
}
