package com.telemed.members.member;

import static com.telemed.members.member.MemberFixtures.auditOf;
import static com.telemed.members.member.MemberFixtures.create;
import static com.telemed.members.member.MemberFixtures.delete;
import static com.telemed.members.member.MemberFixtures.get;
import static com.telemed.members.member.MemberFixtures.ids;
import static com.telemed.members.member.MemberFixtures.list;
import static com.telemed.members.member.MemberFixtures.newPartner;
import static com.telemed.members.member.MemberFixtures.put;
import static org.hamcrest.Matchers.emptyString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.members.FakeRequestsService;
import com.telemed.members.FakeRequestsServiceResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class MemberDeleteTest {

    @Inject
    FakeRequestsService requestsService;

    @BeforeEach
    void reset() {
        requestsService.reset();
    }

    @Test
    void deletesAMemberWithoutRequestsForGood() {
        String partnerId = newPartner();
        String kept = create(partnerId, "Kept", "Member", "kept@example.com");
        String id = create(partnerId, "Gone", "Member", "gone@example.com");
        put(partnerId, id, "{\"status\": \"paused\"}").then().statusCode(200);

        delete(partnerId, id).then().statusCode(204).body(emptyString());

        get(partnerId, id).then().statusCode(404).body("error", equalTo("Member not found"));
        assertEquals(List.of(kept), ids(list(partnerId, Map.of())));
        delete(partnerId, id).then().statusCode(404).body("error", equalTo("Member not found"));
        put(partnerId, id, "{\"status\": \"active\"}").then().statusCode(404);
        // The status audit outlives the member (no foreign key).
        assertEquals(List.of("active->paused@" + partnerId), auditOf(id));
    }

    @Test
    void concurrentDeletesOfOneMemberDeleteItOnce() throws Exception {
        String partnerId = newPartner();
        String id = create(partnerId, "Twice", "Deleted", "twice@example.com");
        int callers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int index = 0; index < callers; index++) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return delete(partnerId, id).statusCode();
                }));
            }
            start.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> answer : answers) {
                statuses.add(answer.get(60, TimeUnit.SECONDS));
            }
            // Each asked requests-service (its agreement repeats harmlessly); the row lock lets one delete.
            assertEquals(1, statuses.stream().filter(status -> status == 204).count(), statuses.toString());
            assertEquals(callers - 1, statuses.stream().filter(status -> status == 404).count(), statuses.toString());
        } finally {
            pool.shutdownNow();
        }
        get(partnerId, id).then().statusCode(404);
    }

    @Test
    void refusesAMemberWithRequestsAndKeepsIt() {
        String partnerId = newPartner();
        String id = create(partnerId, "Busy", "Member", "busy@example.com");
        requestsService.hasRequests(partnerId, id);

        delete(partnerId, id).then().statusCode(400).contentType(ContentType.JSON)
                .body("error", equalTo("Cannot delete member with existing requests. Consider updating the member instead."));
        get(partnerId, id).then().statusCode(200);
    }

    @Test
    void answersNotFoundForAnotherPartnersUnknownOrMalformedIdsWithoutAskingRequestsService() {
        String owner = newPartner();
        String id = create(owner, "Other", "Partner", "other@example.com");
        requestsService.clearCalls();
        String partnerId = newPartner();
        for (String wrong : List.of(id, UUID.randomUUID().toString(), "not-a-uuid")) {
            delete(partnerId, wrong).then().statusCode(404).contentType(ContentType.JSON)
                    .body("error", equalTo("Member not found"));
        }
        assertEquals(List.of(), requestsService.calls());
        get(owner, id).then().statusCode(200);
    }

    @Test
    void failsClosedWhenRequestsServiceCannotSay() {
        String partnerId = newPartner();
        String id = create(partnerId, "Maybe", "Busy", "maybe@example.com");
        for (FakeRequestsService.Failure failure : FakeRequestsService.Failure.values()) {
            requestsService.reset();
            requestsService.failAlways(failure);
            delete(partnerId, id).then().statusCode(503).contentType(ContentType.JSON)
                    .body("error", equalTo("Service Unavailable"));
        }
        requestsService.reset();
        get(partnerId, id).then().statusCode(200);
    }
}
