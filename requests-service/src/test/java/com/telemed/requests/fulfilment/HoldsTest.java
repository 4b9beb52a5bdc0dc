package com.telemed.requests.fulfilment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.telemed.requests.member.MemberRecord;
import com.telemed.requests.pharmacy.PharmacyAdapter;
import com.telemed.requests.pharmacy.PharmacyAnswer;
import com.telemed.requests.pharmacy.PharmacyOrder;
import com.telemed.requests.pharmacy.Pharmacies;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link Holds}, a test per hold (pure: the neighbours are answers given here): each hold alone refuses with its exact
 * code and reason, the holds after it ask nothing, and an item that clears them all goes to its adapter and member.
 */
class HoldsTest {

    private static final Instant ISSUED = Instant.parse("2026-11-20T10:00:00Z");
    private static final PharmacyAdapter ADAPTER = order -> new PharmacyAnswer.Accepted("order-1");
    private static final Pharmacies.Route THROUGH = new Pharmacies.Through(ADAPTER);

    /** What the neighbours were asked, in order. */
    private final List<String> asked = new ArrayList<>();

    @Test
    void anItemWithoutAPrescriptionRecordFails() {
        assertHeld(Holds.Hold.PRESCRIPTION_RECORD, Refusal.Code.NO_PRESCRIPTION_RECORD, "the item has no prescription record",
                check(claimed(null), THROUGH, active(), false));
        assertEquals(List.of(), asked, "no neighbour is asked");
    }

    @Test
    void aDrugWithoutAPharmacyFails() {
        assertHeld(Holds.Hold.PHARMACY, Refusal.Code.NO_PHARMACY, "drug drug-1 has no pharmacy",
                check(claimed(record(true)), new Pharmacies.NoPharmacy(), active(), false));
        assertEquals(List.of(), asked);
    }

    @Test
    void aRecordThatNoLongerMatchesItsDigestFails() {
        assertHeld(Holds.Hold.RECORD_DIGEST, Refusal.Code.RECORD_DIGEST_MISMATCH,
                "the prescription record no longer matches its signed digest",
                check(claimed(record(false)), THROUGH, active(), false));
        assertEquals(List.of(), asked);
    }

    @Test
    void theMemberMustStillBeThereActiveAndAnswered() {
        assertHeld(Holds.Hold.MEMBER, Refusal.Code.MEMBER_NOT_FOUND, "the member no longer exists",
                check(claimed(record(true)), THROUGH, Optional.empty(), false));
        assertHeld(Holds.Hold.MEMBER, Refusal.Code.MEMBER_PAUSED, "member is paused",
                check(claimed(record(true)), THROUGH, Optional.of(member("paused")), false));
        assertHeld(Holds.Hold.MEMBER, Refusal.Code.MEMBER_CANCELLED, "member is cancelled",
                check(claimed(record(true)), THROUGH, Optional.of(member("cancelled")), false));
        assertEquals(List.of("member", "member", "member"), asked, "messaging is not asked about a member who is held");
        Holds.Verdict unavailable = new Holds(new Holds.Neighbours() {
            @Override
            public Optional<MemberRecord> member(String partnerId, UUID memberId) {
                throw new IllegalStateException("members-service down");
            }

            @Override
            public boolean unreadFromPatientSince(String partnerId, UUID memberId, Instant since) {
                throw new AssertionError("not asked");
            }
        }).check(claimed(record(true)), THROUGH);
        assertHeld(Holds.Hold.MEMBER, Refusal.Code.HOLD_CHECK_UNAVAILABLE, "members-service did not answer", unavailable);
    }

    @Test
    void anUnreadPatientMessageSinceTheApprovalHolds() {
        assertHeld(Holds.Hold.UNREAD_MESSAGE, Refusal.Code.UNREAD_PATIENT_MESSAGE,
                "the patient sent a message since approval that no prescriber has read",
                check(claimed(record(true)), THROUGH, active(), true));
        assertEquals(List.of("member", "unread since " + ISSUED), asked, "asked since the record was issued");
        Holds.Verdict unavailable = new Holds(new Holds.Neighbours() {
            @Override
            public Optional<MemberRecord> member(String partnerId, UUID memberId) {
                return active();
            }

            @Override
            public boolean unreadFromPatientSince(String partnerId, UUID memberId, Instant since) {
                throw new IllegalStateException("messaging-service down");
            }
        }).check(claimed(record(true)), THROUGH);
        assertHeld(Holds.Hold.UNREAD_MESSAGE, Refusal.Code.HOLD_CHECK_UNAVAILABLE, "messaging-service did not answer", unavailable);
    }

    @Test
    void aMethodThisDeploymentHasNoIntegrationForHolds() {
        assertHeld(Holds.Hold.PHARMACY_CONFIGURED, Refusal.Code.PHARMACY_NOT_CONFIGURED,
                "no pharmacy integration is configured for acme",
                check(claimed(record(true)), new Pharmacies.NotConfigured("acme"), active(), false));
        assertEquals(List.of("member", "unread since " + ISSUED), asked, "checked last, after the neighbours");
    }

    @Test
    void anItemThatClearsEveryHoldGoesToItsAdapterAndMember() {
        Holds.Clear clear = assertInstanceOf(Holds.Clear.class, check(claimed(record(true)), THROUGH, active(), false));
        assertSame(ADAPTER, clear.adapter());
        assertEquals("active", clear.member().status());
        assertEquals(List.of(Holds.Hold.PRESCRIPTION_RECORD, Holds.Hold.PHARMACY, Holds.Hold.RECORD_DIGEST, Holds.Hold.MEMBER,
                Holds.Hold.UNREAD_MESSAGE, Holds.Hold.PHARMACY_CONFIGURED), List.of(Holds.Hold.values()), "six holds, in order");
    }

    private Holds.Verdict check(Transmissions.Claimed claimed, Pharmacies.Route route, Optional<MemberRecord> member,
                                boolean unread) {
        return new Holds(new Holds.Neighbours() {
            @Override
            public Optional<MemberRecord> member(String partnerId, UUID memberId) {
                asked.add("member");
                return member;
            }

            @Override
            public boolean unreadFromPatientSince(String partnerId, UUID memberId, Instant since) {
                asked.add("unread since " + since);
                return unread;
            }
        }).check(claimed, route);
    }

    private static void assertHeld(Holds.Hold hold, Refusal.Code code, String reason, Holds.Verdict verdict) {
        Holds.Held held = assertInstanceOf(Holds.Held.class, verdict);
        assertEquals(hold, held.hold());
        assertEquals(new Refusal(code, reason), held.refusal());
    }

    private static Transmissions.Claimed claimed(Transmissions.PrescriptionRecordView record) {
        return new Transmissions.Claimed(UUID.randomUUID(), Transmissions.Origin.PARTNER, "partner:p-1", "p-1",
                UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), "drug-1", "acme", "pharmacy-1", record);
    }

    private static Transmissions.PrescriptionRecordView record(boolean intact) {
        return new Transmissions.PrescriptionRecordView(new PharmacyOrder.Prescription(UUID.randomUUID(), "digest", "drug-1",
                UUID.randomUUID(), ISSUED, "2027-11-20", null), intact);
    }

    private static Optional<MemberRecord> active() {
        return Optional.of(member("active"));
    }

    private static MemberRecord member(String status) {
        return new MemberRecord(UUID.randomUUID(), "p-1", "Ada", "Lovelace", "ada@example.com", null, "1990-01-01", "CA",
                status, null, null, null, ISSUED, ISSUED, 1L);
    }
}
