package com.telemed.requests.review;

import static com.telemed.requests.review.ConsoleBodies.json;
import static com.telemed.requests.review.ConsoleBodies.reviewed;
import static com.telemed.testkit.http.Refusals.assertAnswer;
import static com.telemed.testkit.http.Refusals.assertRefused;
import static com.telemed.testkit.http.Refusals.tooLong;
import static io.restassured.RestAssured.given;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.request.RequestFixtures;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /ops/v1/review/queue}'s filters (interfaces of issue #41, B1): {@code drugId} (an item of
 * that drug), {@code partnerId}, {@code prescriberId} (claimed by that prescriber), each alone and
 * combined, oldest first; an unknown value an empty list; a value past 100 characters a 400 issue; an
 * empty value no filter.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class QueueFiltersTest {

    private static final String EMPTY = "{\"requests\":[]}";

    @Inject
    FakeNeighbours neighbours;

    String partner;
    String otherPartner;
    String semaglutide;
    String tirzepatide;
    String prescriberId;
    /** Partner's, semaglutide; partner's, tirzepatide, claimed; the other partner's, semaglutide: in that order. */
    String first;
    String claimed;
    String others;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        partner = RequestFixtures.newPartner();
        otherPartner = RequestFixtures.newPartner();
        semaglutide = RequestFixtures.newDrugId();
        tirzepatide = RequestFixtures.newDrugId();
        neighbours.drug(semaglutide, "Semaglutide", List.of("0.25mg"), partner, otherPartner);
        neighbours.drug(tirzepatide, "Tirzepatide", List.of("2.5mg"), partner);
        String member = neighbours.seedMember(partner, "Ada", "Lovelace", "ada+" + UUID.randomUUID() + "@example.com");
        String otherMember = neighbours.seedMember(otherPartner, "Ada", "Lovelace", "ada+" + UUID.randomUUID() + "@example.com");
        prescriberId = given().contentType("application/json")
                .body(Map.of("name", "Dr Lin", "email", "lin+" + UUID.randomUUID() + "@example.com"))
                .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
        first = RequestFixtures.created(partner, RequestFixtures.prescription(member, semaglutide));
        claimed = RequestFixtures.created(partner, RequestFixtures.prescription(member, tirzepatide));
        others = RequestFixtures.created(otherPartner, RequestFixtures.prescription(otherMember, semaglutide));
        given().header(TestServiceProofs.PRINCIPAL_HEADER, TestServiceProofs.person("acc_lin", prescriberId, "prescriber"))
                .contentType("application/json").body(Map.of())
                .post("/ops/v1/requests/" + claimed + "/claim").then().statusCode(200);
    }

    /** {@code query} as {@code name=value&...}; each parameter sent as written, an empty value as {@code name=}. */
    private static Response queue(String query) {
        RequestSpecification call = given();
        for (String parameter : query.split("&")) {
            String[] pair = parameter.split("=", 2);
            call.queryParam(pair[0], pair[1]);
        }
        return call.get("/ops/v1/review/queue");
    }

    private String requests(Map<?, ?>... requests) {
        return json(Map.of("requests", List.of(requests)));
    }

    @Test
    void eachFilterAloneNarrowsTheQueueOldestFirst() {
        assertAnswer(queue("partnerId=" + partner), 200,
                requests(reviewed(partner, first), reviewed(partner, claimed)));
        assertAnswer(queue("drugId=" + semaglutide), 200,
                requests(reviewed(partner, first), reviewed(otherPartner, others)));
        assertAnswer(queue("prescriberId=" + prescriberId), 200, requests(reviewed(partner, claimed)));
    }

    @Test
    void filtersCombineAndLimitCountsWhatMatches() {
        assertAnswer(queue("partnerId=" + partner + "&drugId=" + semaglutide), 200, requests(reviewed(partner, first)));
        assertAnswer(queue("drugId=" + semaglutide + "&partnerId=" + otherPartner), 200, requests(reviewed(otherPartner, others)));
        assertAnswer(queue("partnerId=" + partner + "&drugId=" + tirzepatide + "&prescriberId=" + prescriberId), 200,
                requests(reviewed(partner, claimed)));
        assertAnswer(queue("drugId=" + semaglutide + "&prescriberId=" + prescriberId), 200, EMPTY);
        assertAnswer(queue("partnerId=" + otherPartner + "&drugId=" + tirzepatide), 200, EMPTY);
        assertAnswer(queue("partnerId=" + partner + "&limit=1"), 200, requests(reviewed(partner, first)));
    }

    @Test
    void anUnknownValueIsAnEmptyQueue() {
        assertAnswer(queue("partnerId=" + RequestFixtures.newPartner()), 200, EMPTY);
        assertAnswer(queue("drugId=" + RequestFixtures.newDrugId()), 200, EMPTY);
        assertAnswer(queue("prescriberId=" + UUID.randomUUID()), 200, EMPTY);
        // Not a prescriber's id at all: nobody claimed anything by it.
        assertAnswer(queue("prescriberId=dr-nobody"), 200, EMPTY);
    }

    @Test
    void aValueThatIsNoIdIsAnIssue() {
        String long101 = "p".repeat(101);
        assertRefused(queue("partnerId=" + long101 + "&prescriberId=" + long101),
                tooLong("[\"partnerId\"]", 100), tooLong("[\"prescriberId\"]", 100));
        assertRefused(queue("limit=0&drugId=" + "d".repeat(101)),
                "{\"code\":\"too_small\",\"minimum\":1,\"type\":\"number\",\"inclusive\":true,\"exact\":false,"
                        + "\"path\":[\"limit\"],\"message\":\"Number must be greater than or equal to 1\"}",
                tooLong("[\"drugId\"]", 100));
        // Exactly 100 characters is an id (unknown here).
        assertAnswer(queue("partnerId=" + "p".repeat(100)), 200, EMPTY);
    }

    /** A form's empty field: the value is absent (as for every query of the service), so it filters nothing. */
    @Test
    void anEmptyValueIsNoFilter() {
        assertAnswer(queue("drugId=&partnerId=" + partner + "&prescriberId="), 200,
                requests(reviewed(partner, first), reviewed(partner, claimed)));
    }
}
