package com.telemed.requests.request;

import static com.telemed.requests.request.RequestFixtures.TIMESTAMP;
import static com.telemed.requests.request.RequestFixtures.cancel;
import static com.telemed.requests.request.RequestFixtures.consultation;
import static com.telemed.requests.request.RequestFixtures.created;
import static com.telemed.requests.request.RequestFixtures.delete;
import static com.telemed.requests.request.RequestFixtures.error;
import static com.telemed.requests.request.RequestFixtures.get;
import static com.telemed.requests.request.RequestFixtures.issue;
import static com.telemed.requests.request.RequestFixtures.list;
import static com.telemed.requests.request.RequestFixtures.newDrugId;
import static com.telemed.requests.request.RequestFixtures.newPartner;
import static com.telemed.requests.request.RequestFixtures.prescription;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** GET /v1/requests, GET/DELETE /v1/requests/:id, partner isolation (partner-api.md, Requests). */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class RequestReadTest {

    private static final Set<String> LIST_FIELDS = Set.of("id", "memberId", "memberName", "memberEmail", "memberState",
            "lineItems", "itemCount", "statusSummary", "status", "createdAt", "updatedAt");
    private static final Set<String> COMPACT_ITEM_FIELDS = Set.of("itemId", "drugId", "drugName", "dosage", "status",
            "prescriberId", "trackingNumber", "shipCarrier", "deliveryStatus");

    @Inject
    FakeNeighbours neighbours;

    String partner;
    String drugId;
    String memberId;
    String email;
    JsonObject drug;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        partner = newPartner();
        drugId = newDrugId();
        drug = neighbours.drug(drugId, "Semaglutide", List.of("0.25mg", "0.5mg"), partner);
        email = "grace+" + UUID.randomUUID() + "@example.com";
        memberId = neighbours.seedMember(partner, "Grace", "Hopper", email);
    }

    private static Map<String, Object> plain(JsonObject json) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readValue(json.encode(), Map.class);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private String newRequest() {
        return created(partner, prescription(memberId, drugId));
    }

    private List<String> ids(String query) {
        return list(partner, query).then().statusCode(200).extract().jsonPath().getList("requests.id");
    }

    // --- list ---

    @Test
    void listIsNewestFirstWithExactEntries() {
        String first = newRequest();
        String second = newRequest();
        JsonPath page = list(partner, "").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(second, first), page.getList("requests.id"));
        assertEquals(Map.of("page", 1, "limit", 20, "total", 2, "totalPages", 1), page.getMap("pagination"));
        assertEquals(Set.of("requests", "pagination"), page.getMap("").keySet());
        Map<String, Object> entry = page.getMap("requests[0]");
        assertEquals(LIST_FIELDS, entry.keySet());
        assertEquals(COMPACT_ITEM_FIELDS, page.getMap("requests[0].lineItems[0]").keySet());
        assertEquals(memberId, entry.get("memberId"));
        assertEquals("Grace Hopper", entry.get("memberName"));
        assertEquals(email, entry.get("memberEmail"));
        assertEquals("CA", entry.get("memberState"));
        assertEquals(1, entry.get("itemCount"));
        assertEquals("1 drug - 1 pending", entry.get("statusSummary"));
        assertEquals("pending", entry.get("status"));
        Map<String, Object> item = new HashMap<>(page.getMap("requests[0].lineItems[0]"));
        item.remove("itemId");
        Map<String, Object> expected = new HashMap<>();
        expected.put("drugId", drugId);
        expected.put("drugName", "Semaglutide");
        expected.put("dosage", null);
        expected.put("status", "pending");
        expected.put("prescriberId", null);
        expected.put("trackingNumber", null);
        expected.put("shipCarrier", null);
        expected.put("deliveryStatus", null);
        assertEquals(expected, item);
    }

    @Test
    void pagination() {
        String first = newRequest();
        String second = newRequest();
        String third = newRequest();
        JsonPath page1 = list(partner, "limit=2").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(third, second), page1.getList("requests.id"));
        assertEquals(Map.of("page", 1, "limit", 2, "total", 3, "totalPages", 2), page1.getMap("pagination"));
        JsonPath page2 = list(partner, "limit=2&page=2").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(first), page2.getList("requests.id"));
        assertEquals(Map.of("page", 2, "limit", 2, "total", 3, "totalPages", 2), page2.getMap("pagination"));
        list(partner, "limit=2&page=3").then().statusCode(200).body("requests", equalTo(List.of()))
                .body("pagination", equalTo(Map.of("page", 3, "limit", 2, "total", 3, "totalPages", 2)));
    }

    @Test
    void emptyList() {
        list(partner, "").then().statusCode(200).body("", equalTo(Map.of("requests", List.of(),
                "pagination", Map.of("page", 1, "limit", 20, "total", 0, "totalPages", 0))));
    }

    @Test
    void limitOutOfRange() {
        list(partner, "limit=0").then().statusCode(400).body("error", equalTo(List.of(issue("too_small", List.of("limit"),
                "Number must be greater than or equal to 1", "minimum", 1, "type", "number", "inclusive", true, "exact", false))));
        list(partner, "limit=101").then().statusCode(400).body("error", equalTo(List.of(issue("too_big", List.of("limit"),
                "Number must be less than or equal to 100", "maximum", 100, "type", "number", "inclusive", true, "exact", false))));
    }

    @Test
    void limitNotANumber() {
        list(partner, "limit=abc").then().statusCode(400).body("error", equalTo(List.of(issue("invalid_type", List.of("limit"),
                "Expected number, received nan", "expected", "number", "received", "nan"))));
    }

    @Test
    void invalidStatus() {
        list(partner, "status=bogus").then().statusCode(400)
                .body("error[0].code", equalTo("invalid_enum_value"))
                .body("error[0].path", equalTo(List.of("status")))
                .body("error[0].received", equalTo("bogus"))
                .body("error.size()", equalTo(1));
    }

    @Test
    void statusFilterMatchesItemStatus() {
        String pending = newRequest();
        String cancelled = newRequest();
        cancel(partner, cancelled, null).then().statusCode(200);
        assertEquals(List.of(pending), ids("status=pending"));
        assertEquals(List.of(cancelled), ids("status=cancelled"));
        assertEquals(List.of(), ids("status=approved"));
        assertEquals(List.of(), ids("status=call_requested"));
        list(partner, "status=pending").then().body("pagination.total", equalTo(1));
        list(partner, "status=cancelled").then()
                .body("requests[0].status", equalTo("cancelled"))
                .body("requests[0].statusSummary", equalTo("1 drug - 1 cancelled"))
                .body("requests[0].lineItems[0].status", equalTo("cancelled"));
    }

    @Test
    void dateFiltersAreInclusiveToTheEndOfTheDay() {
        String id = newRequest();
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        assertEquals(List.of(id), ids("startDate=" + today + "&endDate=" + today));
        assertEquals(List.of(id), ids("endDate=" + today));
        assertEquals(List.of(id), ids("startDate=" + today.minusDays(1)));
        assertEquals(List.of(), ids("endDate=" + today.minusDays(1)));
        assertEquals(List.of(), ids("startDate=" + today.plusDays(1)));
        assertEquals(List.of(id), ids("startDate=" + today + "T00:00:00.000Z"));
    }

    @Test
    void invalidDateIsAnIssue() {
        list(partner, "startDate=yesterday").then().statusCode(400)
                .body("error.path", equalTo(List.of(List.of("startDate"))));
    }

    @Test
    void consultationInTheListUsesTheCompatibilityShape() {
        String id = created(partner, consultation(memberId));
        JsonPath page = list(partner, "").then().statusCode(200).extract().jsonPath();
        Map<String, Object> entry = page.getMap("requests[0]");
        assertEquals(id, entry.get("id"));
        assertEquals(1, entry.get("itemCount"));
        assertEquals("1 drug - pending", entry.get("statusSummary"));
        assertEquals("pending", entry.get("status"));
        for (String field : List.of("drugId", "prescriptionName", "dosage")) {
            assertEquals(true, entry.containsKey(field), field + " present");
            assertEquals(null, entry.get(field), field + " null");
        }
        List<Map<String, Object>> items = page.getList("requests[0].lineItems");
        assertEquals(1, items.size());
        assertEquals(id, items.get(0).get("itemId"));
        assertEquals("pending", items.get(0).get("status"));
    }

    // --- detail ---

    @Test
    void detailOfAPrescriptionRequest() {
        String id = newRequest();
        JsonPath detail = get(partner, id).then().statusCode(200)
                .body("createdAt", matchesPattern(TIMESTAMP))
                .body("updatedAt", matchesPattern(TIMESTAMP))
                .body("history.timestamp", everyItem(matchesPattern(TIMESTAMP)))
                .extract().jsonPath();
        assertEquals(id, detail.getString("id"));
        assertEquals(memberId, detail.getString("memberId"));
        assertEquals("Grace Hopper", detail.getString("memberName"));
        assertEquals(email, detail.getString("memberEmail"));
        assertEquals("1990-04-12", detail.getString("memberDob"));
        assertEquals("CA", detail.getString("memberState"));
        assertEquals("pending", detail.getString("status"));
        assertEquals(1, detail.getInt("itemCount"));
        assertEquals("1 drug - 1 pending", detail.getString("statusSummary"));
        assertEquals("Patient reports mild symptoms", detail.getString("caseNotes"));
        assertEquals(List.of(), detail.getList("prescriptionRecords"));
        assertEquals(null, (Object) detail.get("prescriptionRecord"));
        assertEquals(null, (Object) detail.get("providerId"));
        // Top-level mirrors of the first item.
        assertEquals(drugId, detail.getString("drugId"));
        assertEquals("Semaglutide", detail.getString("prescriptionName"));
        assertEquals(plain(drug), detail.getMap("drug"));
        assertEquals(null, (Object) detail.get("dosage"));
        assertEquals("pharmacy-" + drugId, detail.getString("pharmacyId"));
        // The member record: no partnerId, no gender.
        Map<String, Object> member = detail.getMap("member");
        assertEquals(memberId, member.get("id"));
        assertEquals(false, member.containsKey("partnerId"));
        assertEquals(false, member.containsKey("gender"));
        assertEquals(Set.of("id", "firstName", "lastName", "email", "phone", "dateOfBirth", "state", "status", "address",
                "shippingAddress", "createdAt", "updatedAt"), member.keySet());
        // The line item.
        List<Map<String, Object>> items = detail.getList("lineItems");
        assertEquals(1, items.size());
        Map<String, Object> item = items.get(0);
        assertEquals(drugId, item.get("drugId"));
        assertEquals("Semaglutide", item.get("drugName"));
        assertEquals(plain(drug), item.get("drug"));
        assertEquals("pending", item.get("status"));
        assertEquals(null, item.get("prescription"));
        assertEquals(null, item.get("prescriptionRecord"));
        assertEquals(null, item.get("prescriberId"));
        assertEquals("pharmacy-" + drugId, item.get("pharmacyId"));
        assertEquals(false, item.get("pharmacySent"));
        assertEquals(null, item.get("pharmacySentAt"));
        // History: one created entry by the API.
        List<Map<String, Object>> history = detail.getList("history");
        assertEquals(1, history.size(), "request history: " + history);
        assertEquals(Set.of("action", "timestamp", "by"), history.get(0).keySet());
        assertEquals("created", history.get(0).get("action"));
        assertEquals("api", history.get(0).get("by"));
    }

    @Test
    void detailOfAConsultationRequest() {
        String id = created(partner, consultation(memberId));
        get(partner, id).then().statusCode(200)
                .body("lineItems", equalTo(List.of()))
                .body("itemCount", equalTo(0))
                .body("statusSummary", equalTo("No items"))
                .body("status", equalTo("pending"))
                .body("drugId", nullValue())
                .body("prescriptionName", nullValue())
                .body("drug", nullValue())
                .body("dosage", nullValue())
                .body("pharmacyId", nullValue())
                .body("prescriptionRecord", nullValue())
                .body("history.action", equalTo(List.of("created")))
                .body("history.by", equalTo(List.of("api")));
    }

    // --- isolation ---

    @Test
    void anotherPartnersRequestIsNotFound() {
        String id = newRequest();
        String other = newPartner();
        get(other, id).then().statusCode(404).body("", equalTo(error("Request not found")));
        delete(other, id).then().statusCode(404).body("", equalTo(error("Request not found")));
        cancel(other, id, null).then().statusCode(404).body("", equalTo(error("Request not found")));
        list(other, "").then().statusCode(200).body("requests", equalTo(List.of()));
        get(partner, id).then().statusCode(200).body("status", equalTo("pending")).body("lineItems[0].status", equalTo("pending"));
    }

    @Test
    void unknownAndMalformedIdsAreNotFound() {
        for (String id : List.of(UUID.randomUUID().toString(), "not-a-uuid")) {
            get(partner, id).then().statusCode(404).body("", equalTo(error("Request not found")));
            delete(partner, id).then().statusCode(404).body("", equalTo(error("Request not found")));
            cancel(partner, id, null).then().statusCode(404).body("", equalTo(error("Request not found")));
        }
    }

    // --- delete ---

    @Test
    void deletePendingRequest() {
        String id = newRequest();
        delete(partner, id).then().statusCode(204).body(equalTo(""));
        get(partner, id).then().statusCode(404).body("", equalTo(error("Request not found")));
        delete(partner, id).then().statusCode(404).body("", equalTo(error("Request not found")));
        list(partner, "").then().body("pagination.total", equalTo(0));
    }

    @Test
    void deleteConsultationRequest() {
        String id = created(partner, consultation(memberId));
        delete(partner, id).then().statusCode(204);
        get(partner, id).then().statusCode(404);
    }

    @Test
    void deleteAfterCancelIsRefused() {
        String id = newRequest();
        cancel(partner, id, null).then().statusCode(200).body("aggregateStatus", equalTo("cancelled"));
        delete(partner, id).then().statusCode(400)
                .body("", equalTo(error("Only pending requests can be deleted. This request has already been processed.")));
        get(partner, id).then().statusCode(200);
    }
}
