package com.telemed.requests.request;

import static com.telemed.requests.request.RequestFixtures.created;
import static com.telemed.requests.request.RequestFixtures.error;
import static com.telemed.requests.request.RequestFixtures.inlineMember;
import static com.telemed.requests.request.RequestFixtures.post;
import static com.telemed.requests.request.RequestFixtures.prescription;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.PartnerWithDrugAndMember;
import com.telemed.requests.catalogue.CatalogueChanges;
import com.telemed.requests.catalogue.CatalogueCopy;
import com.telemed.requests.catalogue.CatalogueCopySync;
import com.telemed.requests.catalogue.DrugLookup;
import com.telemed.requests.member.MemberCopies;
import com.telemed.requests.member.MemberSnapshot;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Issue 23: a create that names a {@code memberId} reads requests-service's copy of the member instead
 * of calling members-service, and the copy never answers with a change members-service has fenced
 * but the copy does not hold ({@link MemberCopies}). The fake members-service counts its calls.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class MemberCopyTest extends PartnerWithDrugAndMember {

    @Inject
    MemberCopies copies;

    @Inject
    CopiedReads reads;

    @Inject
    CatalogueCopySync sync;

    @Inject
    CatalogueCopy catalogueCopy;

    private int lookups(String member) {
        return neighbours.calls("GET", "/internal/members/" + member).size();
    }

    private static Request stored(String requestId) {
        return QuarkusTransaction.requiringNew().call(() -> Request.findById(UUID.fromString(requestId)));
    }

    private void fence(String member, long version) {
        given().contentType("application/json").body(Map.of("partnerId", partner, "memberId", member, "version", version))
                .when().post("/internal/requests/member-fences").then().statusCode(204);
    }

    @Test
    void theFirstCreateReadsTheMemberThroughAndTheNextOnesReadTheCopy() {
        Request first = stored(created(partner, prescription(memberId, drugId)));
        assertEquals(1, lookups(memberId));
        Request second = stored(created(partner, prescription(memberId, drugId)));
        Request third = stored(created(partner, prescription(memberId, drugId)));
        assertEquals(1, lookups(memberId), "the copy answered");
        for (Request request : List.of(first, second, third)) {
            assertEquals("Grace Hopper", request.memberName);
            assertEquals(neighbours.member(memberId).getString("email"), request.memberEmail);
            assertEquals("1990-04-12", request.memberDob);
            assertEquals("CA", request.memberState);
        }
    }

    @Test
    void aFencedChangeIsReadThroughOnTheNextCreateAndCopiedForTheOnesAfter() {
        created(partner, prescription(memberId, drugId));
        // members-service's PUT: fence first, then the change commits.
        fence(memberId, 2);
        neighbours.changeMember(memberId, new JsonObject().put("state", "NY").put("lastName", "Brewster"));

        Request after = stored(created(partner, prescription(memberId, drugId)));
        assertEquals(2, lookups(memberId), "read through once");
        assertEquals("NY", after.memberState);
        assertEquals("Grace Brewster", after.memberName);
        Request next = stored(created(partner, prescription(memberId, drugId)));
        assertEquals(2, lookups(memberId), "the copy holds the change");
        assertEquals("NY", next.memberState);
    }

    /** What the fence is for: a change members-service did not fence stays unseen while the copy answers. */
    @Test
    void withoutItsFenceAChangeIsNotSeen() {
        created(partner, prescription(memberId, drugId));
        neighbours.changeMember(memberId, new JsonObject().put("state", "NY"));
        assertEquals("CA", stored(created(partner, prescription(memberId, drugId))).memberState);
        assertEquals(1, lookups(memberId));
    }

    /** A fence whose change never committed (members-service's transaction failed): every create reads through, and succeeds. */
    @Test
    void aFenceAboveTheMembersVersionMakesEveryCreateReadThrough() {
        created(partner, prescription(memberId, drugId));
        fence(memberId, 2);
        for (int i = 0; i < 3; i++) {
            assertEquals("CA", stored(created(partner, prescription(memberId, drugId))).memberState);
        }
        assertEquals(4, lookups(memberId));
    }

    @Test
    void aFenceNeverGoesDownAndAnOlderReadNeverReplacesANewerCopy() {
        UUID member = UUID.fromString(memberId);
        MemberSnapshot v3 = new MemberSnapshot(member, "Grace", "Hopper", "g@example.com", "1990-04-12", "TX", 3);
        MemberSnapshot v2 = new MemberSnapshot(member, "Grace", "Hopper", "g@example.com", "1990-04-12", "NY", 2);
        fence(memberId, 3);
        fence(memberId, 2);
        copies.store(partner, v2);
        assertEquals(Optional.empty(), copies.current(partner, member), "version 2 is below the fence of 3");
        copies.store(partner, v3);
        assertEquals(Optional.of(v3), copies.current(partner, member));
        copies.store(partner, v2); // a read through that was answered before the change, kept late
        assertEquals(Optional.of(v3), copies.current(partner, member));
        assertEquals(Optional.empty(), copies.current("partner-" + UUID.randomUUID(), member), "another partner's copy");
    }

    @Test
    void anotherPartnersMemberIsNotFoundEvenWhenCopied() {
        created(partner, prescription(memberId, drugId));
        String other = "partner-" + UUID.randomUUID();
        neighbours.drug(drugId, "Semaglutide", dosages(), partner, other);
        var refused = post(other, prescription(memberId, drugId));
        assertEquals(400, refused.statusCode());
        assertEquals(error("Member not found"), refused.jsonPath().getMap(""));
    }

    @Test
    void anAgreedDeleteForgetsTheCopyAndTheMemberIsNotFound() {
        created(partner, prescription(memberId, drugId));
        String other = neighbours.seedMember(partner, "Alan", "Turing", "alan+" + UUID.randomUUID() + "@example.com");
        created(partner, prescription(other, drugId));
        // A member without requests: agreed, then members-service deletes it.
        String lonely = neighbours.seedMember(partner, "Lonely", "Member", "lonely+" + UUID.randomUUID() + "@example.com");
        copies.store(partner, new MemberSnapshot(UUID.fromString(lonely), "Lonely", "Member", "l@example.com", null, "CA", 1));
        boolean hasRequests = given().contentType("application/json").body(Map.of("partnerId", partner, "memberId", lonely))
                .when().post("/internal/requests/member-deletions").then().statusCode(200).extract().path("hasRequests");
        assertEquals(false, hasRequests);
        neighbours.deleteMember(lonely);
        Long rows = QuarkusTransaction.requiringNew().call(() -> (Long) Request.getEntityManager()
                .createNativeQuery("SELECT count(*) FROM member_copies WHERE partner_id = :p AND member_id = :m", Long.class)
                .setParameter("p", partner).setParameter("m", UUID.fromString(lonely)).getSingleResult());
        assertEquals(0L, rows, "the copy went with the agreement");
        var refused = post(partner, prescription(lonely, drugId));
        assertEquals(400, refused.statusCode());
        assertEquals(error("Member not found"), refused.jsonPath().getMap(""));
    }

    /**
     * The inline member of an existing email: members-service answers the fence of its change, which is
     * recorded before the same ask is repeated naming it; the answer is copied.
     */
    @Test
    void anInlineMemberChangeIsFencedBeforeItIsMadeAndItsResultCopied() {
        String email = neighbours.member(memberId).getString("email");
        created(partner, prescription(memberId, drugId));
        Map<String, Object> member = new LinkedHashMap<>(inlineMember(email));
        member.put("state", "WA");
        Map<String, Object> body = new LinkedHashMap<>(prescription(memberId, drugId));
        body.remove("memberId");
        body.put("member", member);
        Request inline = stored(created(partner, body));
        assertEquals("WA", inline.memberState);
        assertEquals("Ada Lovelace", inline.memberName);
        var asks = neighbours.findOrCreateCalls();
        assertEquals(2, asks.size());
        assertNull(asks.get(0).json().getJsonObject("fenced"));
        assertEquals(new JsonObject().put("memberId", memberId).put("version", 2), asks.get(1).json().getJsonObject("fenced"));
        assertEquals(2L, neighbours.member(memberId).getLong("version"));

        Request byId = stored(created(partner, prescription(memberId, drugId)));
        assertEquals("WA", byId.memberState);
        assertEquals(1, lookups(memberId), "the copy holds the inline change");
    }

    @Test
    void anInlineMemberWithANewEmailIsCreatedInOneAskAndCopied() {
        Map<String, Object> body = new LinkedHashMap<>(prescription(memberId, drugId));
        body.remove("memberId");
        body.put("member", inlineMember("new+" + UUID.randomUUID() + "@example.com"));
        Request inline = stored(created(partner, body));
        assertEquals(1, neighbours.findOrCreateCalls().size());
        String created = inline.memberId.toString();
        assertEquals("CA", stored(created(partner, prescription(created, drugId))).memberState);
        assertEquals(0, lookups(created), "copied from find-or-create's answer");
    }

    /**
     * Fenced changes of one member (each committed right after its fence, as members-service does) while
     * creates for it run on 8 threads: every create snapshots the change answered last before it started,
     * or a later one; never an earlier one. The change's version is in the state it sets ("S" + version).
     */
    @Test
    void concurrentChangesAndCreatesNeverSnapshotAChangeOlderThanTheLastOneAnswered() throws Exception {
        created(partner, prescription(memberId, drugId));
        AtomicLong answered = new AtomicLong(1);
        AtomicBoolean changing = new AtomicBoolean(true);
        ExecutorService callers = Executors.newFixedThreadPool(9);
        try {
            Future<?> changes = callers.submit(() -> {
                for (int change = 0; change < 30; change++) {
                    long version = neighbours.member(memberId).getLong("version") + 1;
                    fence(memberId, version);
                    neighbours.changeMember(memberId, new JsonObject().put("state", "S" + version));
                    answered.set(version);
                }
                changing.set(false);
                return null;
            });
            List<Future<List<long[]>>> creators = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                creators.add(callers.submit(() -> {
                    List<long[]> seen = new ArrayList<>();
                    while (changing.get()) {
                        long floor = answered.get();
                        String state = stored(created(partner, prescription(memberId, drugId))).memberState;
                        seen.add(new long[] {floor, state.equals("CA") ? 1 : Long.parseLong(state.substring(1))});
                    }
                    return seen;
                }));
            }
            changes.get();
            int creates = 0;
            for (Future<List<long[]>> creator : creators) {
                for (long[] seen : creator.get()) {
                    creates++;
                    assertTrue(seen[1] >= seen[0], "a create started after change " + seen[0] + " snapshot change " + seen[1]);
                }
            }
            assertTrue(creates >= 30, "creates ran alongside the changes: " + creates);
        } finally {
            callers.shutdownNow();
        }
    }

    /**
     * With the catalogue copy synced, a create by memberId reads the member's copy and the drug's in one
     * statement ({@link CopiedReads}); what either lacks is still asked of its service.
     */
    @Test
    void withTheCatalogueCopySyncedTheMemberAndTheDrugAreReadTogether() throws Exception {
        String copiedDrug = "copied-" + UUID.randomUUID().toString().substring(0, 8);
        JsonObject record = new JsonObject().put("id", copiedDrug).put("name", "Copied").putNull("description").putNull("defaultAdCopy")
                .put("dosages", new JsonArray().add("1 mg")).put("skus", new JsonArray().add(new JsonObject()
                        .put("id", "sku_" + copiedDrug).put("label", "1 mg").putNull("packageSize").putNull("concentration")
                        .put("active", true))).put("classification", "non-controlled");
        // Synced by this snapshot, or already by an earlier test's (the flag is the process's); the drug applied either way.
        neighbours.catalogueSnapshot(new JsonObject().put("access", new JsonArray()).put("drugs", new JsonArray()));
        assertTrue(sync.syncNow());
        catalogueCopy.apply(new CatalogueChanges.Drug(copiedDrug, 1, new ObjectMapper().readTree(record.encode()),
                new DrugLookup.Pharmacy("pharm", "email")));
        UUID member = UUID.fromString(memberId);

        CopiedReads.Both nothingYet = reads.read(partner, member, copiedDrug);
        assertEquals(Optional.empty(), nothingYet.member());
        assertEquals("Copied", nothingYet.drug().orElseThrow().name());
        assertEquals(Optional.empty(), reads.read(partner, member, "nowhere").drug());

        created(partner, prescription(memberId, copiedDrug));
        assertEquals(1, lookups(memberId), "the member read through once");
        Request second = stored(created(partner, prescription(memberId, copiedDrug)));
        assertEquals("Grace Hopper", second.memberName);
        assertEquals(1, lookups(memberId));
        assertEquals(List.of(), neighbours.calls().stream().filter(FakeNeighbours::toCatalogue).toList(), "the drug from the copy");
        CopiedReads.Both both = reads.read(partner, member, copiedDrug);
        assertEquals("CA", both.member().orElseThrow().state());
        assertEquals(Optional.empty(), reads.read("partner-" + UUID.randomUUID(), member, copiedDrug).member(), "another partner's");

        // The drug the copy lacks (the test's own, at the fake catalogue-service) is still asked for.
        created(partner, prescription(memberId, drugId));
        assertEquals(1, neighbours.calls().stream().filter(FakeNeighbours::toCatalogue).count());
        assertEquals(1, lookups(memberId));
    }

    @Test
    void aFenceIsValidatedAsTheOtherInternalAsks() {
        given().contentType("application/json").body(Map.of("partnerId", partner, "memberId", "not-a-uuid", "version", 2))
                .when().post("/internal/requests/member-fences").then().statusCode(400)
                .body("error.path", equalTo(List.of(List.of("memberId")))).body("error.message", equalTo(List.of("Invalid uuid")));
        given().contentType("application/json").body(Map.of("partnerId", partner, "memberId", memberId, "version", 0))
                .when().post("/internal/requests/member-fences").then().statusCode(400)
                .body("error.path", equalTo(List.of(List.of("version")))).body("error.code", equalTo(List.of("too_small")));
        given().contentType("application/json").body(Map.of("memberId", memberId, "version", 2.5))
                .when().post("/internal/requests/member-fences").then().statusCode(400)
                .body("error.path", equalTo(List.of(List.of("partnerId"), List.of("version"))))
                .body("error.code", equalTo(List.of("invalid_type", "invalid_type")));
        created(partner, prescription(memberId, drugId));
        created(partner, prescription(memberId, drugId));
        assertEquals(1, lookups(memberId), "no fence was recorded by the refused asks");
    }
}
