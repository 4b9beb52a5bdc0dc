package com.telemed.requests.request;

import static com.telemed.requests.request.RequestFixtures.error;
import static com.telemed.requests.request.RequestFixtures.inlineMember;
import static com.telemed.requests.request.RequestFixtures.list;
import static com.telemed.requests.request.RequestFixtures.post;
import static com.telemed.requests.request.RequestFixtures.prescription;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.PartnerWithDrugAndMember;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** members-service or catalogue-service failing: 503 Service Unavailable, nothing stored (decisions.md, Wire format). */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class RemoteFailureTest extends PartnerWithDrugAndMember {

    @Override
    protected List<String> dosages() {
        return List.of("0.25mg");
    }

    private Map<String, Object> inlineBody() {
        Map<String, Object> body = prescription(memberId, drugId);
        body.remove("memberId");
        body.put("member", inlineMember("ada+" + UUID.randomUUID() + "@example.com"));
        return body;
    }

    private void nothingStored() {
        list(partner, "").then().statusCode(200).body("pagination.total", equalTo(0));
    }

    @Test
    void membersAnswering500() {
        neighbours.failMembers(FakeNeighbours.Failure.ERROR_500);
        post(partner, inlineBody()).then().statusCode(503).body("", equalTo(error("Service Unavailable")));
        post(partner, prescription(memberId, drugId)).then().statusCode(503).body("", equalTo(error("Service Unavailable")));
        nothingStored();
    }

    @Test
    void membersTimingOutIsRetriedOnceThenUnavailable() {
        neighbours.failMembers(FakeNeighbours.Failure.SLOW);
        post(partner, prescription(memberId, drugId)).then().statusCode(503).body("", equalTo(error("Service Unavailable")));
        assertEquals(2, neighbours.calls("GET", "/internal/members/" + memberId).size(), "two attempts");
        nothingStored();
    }

    @Test
    void catalogueAnswering500() {
        neighbours.failCatalogue(FakeNeighbours.Failure.ERROR_500);
        post(partner, prescription(memberId, drugId)).then().statusCode(503).body("", equalTo(error("Service Unavailable")));
        nothingStored();
    }

    @Test
    void catalogueTimingOut() {
        neighbours.failCatalogue(FakeNeighbours.Failure.SLOW);
        post(partner, prescription(memberId, drugId)).then().statusCode(503).body("", equalTo(error("Service Unavailable")));
        nothingStored();
    }

    @Test
    void keyIsFreeAgainAfterAnOutage() {
        String key = "key-" + UUID.randomUUID();
        neighbours.failMembers(FakeNeighbours.Failure.ERROR_500);
        post(partner, prescription(memberId, drugId), key).then().statusCode(503);
        neighbours.reset();
        post(partner, prescription(memberId, drugId), key).then().statusCode(201);
    }
}
