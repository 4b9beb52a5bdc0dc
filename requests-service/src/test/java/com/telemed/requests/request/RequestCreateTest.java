package com.telemed.requests.request;

import static com.telemed.requests.request.RequestFixtures.consultation;
import static com.telemed.requests.request.RequestFixtures.error;
import static com.telemed.requests.request.RequestFixtures.inlineMember;
import static com.telemed.requests.request.RequestFixtures.issue;
import static com.telemed.requests.request.RequestFixtures.item;
import static com.telemed.requests.request.RequestFixtures.list;
import static com.telemed.requests.request.RequestFixtures.newDrugId;
import static com.telemed.requests.request.RequestFixtures.newPartner;
import static com.telemed.requests.request.RequestFixtures.post;
import static com.telemed.requests.request.RequestFixtures.prescription;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.PartnerWithDrugAndMember;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** POST /v1/requests: body shapes, member, notes, drug checks, pharmacySendAt (partner-api.md, Requests). */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class RequestCreateTest extends PartnerWithDrugAndMember {

    @Override
    protected List<String> dosages() {
        return List.of("0.25mg", "0.5mg", "1mg");
    }

    private static final String UUID_V4 = "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$";

    private int requestCount() {
        return list(partner, "").then().statusCode(200).extract().jsonPath().getInt("pagination.total");
    }

    // --- trust between services ---

    /** members-service and catalogue-service refuse a call without a proof: every call carries one for its own target. */
    @Test
    void everyCallToTheNeighboursCarriesAServiceProof() {
        Map<String, Object> inline = new LinkedHashMap<>(prescription(memberId, drugId));
        inline.remove("memberId");
        inline.put("member", inlineMember("ada+" + UUID.randomUUID() + "@example.com"));
        post(partner, prescription(memberId, drugId)).then().statusCode(201);
        post(partner, inline).then().statusCode(201);
        assertEquals(List.of(), neighbours.unproven());
        assertEquals(List.of("GET /internal/members/" + memberId, "GET /internal/drugs/" + drugId,
                        "POST /internal/members/find-or-create", "GET /internal/drugs/" + drugId),
                neighbours.calls().stream().map(call -> call.method() + " " + call.path()).toList());
    }

    // --- body shapes ---

    @Test
    void itemsBodyCreatesOneItem() {
        Map<String, Object> answer = post(partner, prescription(memberId, drugId)).then().statusCode(201)
                .body("requestId", matchesPattern(UUID_V4)).extract().jsonPath().getMap("");
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("success", true);
        expected.put("requestId", answer.get("requestId"));
        expected.put("memberId", memberId);
        expected.put("itemCount", 1);
        expected.put("message", "Request queued successfully with 1 item(s)");
        assertEquals(expected, answer);
    }

    @Test
    void noItemsAndNoDrugIdIsAConsultation() {
        Map<String, Object> answer = post(partner, consultation(memberId)).then().statusCode(201).extract().jsonPath().getMap("");
        assertEquals(Map.of("success", true, "requestId", answer.get("requestId"), "memberId", memberId, "itemCount", 0,
                "message", "Consultation request created successfully"), answer);
    }

    @Test
    void emptyItemsIsAConsultation() {
        Map<String, Object> body = consultation(memberId);
        body.put("items", List.of());
        post(partner, body).then().statusCode(201).body("itemCount", equalTo(0))
                .body("message", equalTo("Consultation request created successfully"));
    }

    @Test
    void legacyTopLevelDrugIdMakesOneItem() {
        Map<String, Object> body = consultation(memberId);
        body.put("drugId", drugId);
        body.put("dosage", "0.5mg");
        String requestId = post(partner, body).then().statusCode(201).body("itemCount", equalTo(1))
                .body("message", equalTo("Request queued successfully with 1 item(s)")).extract().path("requestId");
        RequestFixtures.get(partner, requestId).then().statusCode(200)
                .body("lineItems.size()", equalTo(1))
                .body("lineItems[0].drugId", equalTo(drugId))
                .body("lineItems[0].dosage", equalTo("0.5mg"));
    }

    // --- member ---

    @Test
    void neitherMemberIdNorMemberIsAnIssue() {
        Map<String, Object> body = prescription(memberId, drugId);
        body.remove("memberId");
        post(partner, body).then().statusCode(400)
                .body("error", equalTo(List.of(issue("custom", List.of("memberId"), "Either memberId or member is required"))));
    }

    @Test
    void bothMemberIdAndMemberIsAnIssue() {
        Map<String, Object> body = prescription(memberId, drugId);
        body.put("member", inlineMember("ada+" + UUID.randomUUID() + "@example.com"));
        post(partner, body).then().statusCode(400)
                .body("error", equalTo(List.of(issue("custom", List.of("member"), "Send either memberId or member, not both"))));
        assertEquals(0, neighbours.findOrCreateCalls().size());
    }

    /**
     * The caseNotes rule's issue comes beside the member's invalid_string issues: Zod 3 runs
     * superRefine on a dirty (not aborted) object; decisions.md: every issue at once.
     */
    @Test
    void invalidInlineMemberIssuesComeWithOtherBodyIssuesInOneAnswer() {
        Map<String, Object> member = inlineMember("not-an-email");
        @SuppressWarnings("unchecked")
        Map<String, Object> address = (Map<String, Object>) member.get("address");
        address.put("zipCode", "ABCDE");
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("member", member);
        body.put("items", List.of(item(drugId)));
        List<Map<String, Object>> issues = post(partner, body).then().statusCode(400).extract().jsonPath().getList("error");
        assertEquals(List.of(
                issue("invalid_string", List.of("member", "email"), "Invalid email", "validation", "email"),
                issue("invalid_string", List.of("member", "address", "zipCode"), "Invalid", "validation", "regex"),
                issue("custom", List.of("caseNotes"), "Either caseNotes or v2SurveyResponseId is required")), issues);
        assertEquals(0, neighbours.findOrCreateCalls().size(), "nothing reaches members-service");
    }

    /** Field-level issues of the body and the inline member's issues come together. */
    @Test
    void invalidInlineMemberIssuesComeWithOtherFieldIssuesInOneAnswer() {
        Map<String, Object> member = inlineMember("ada+" + UUID.randomUUID() + "@example.com");
        @SuppressWarnings("unchecked")
        Map<String, Object> address = (Map<String, Object>) member.get("address");
        address.put("zipCode", "ABCDE");
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("member", member);
        body.put("items", List.of(item(drugId), item(drugId)));
        body.put("caseNotes", "notes");
        List<Map<String, Object>> issues = post(partner, body).then().statusCode(400).extract().jsonPath().getList("error");
        assertEquals(List.of(
                issue("invalid_string", List.of("member", "address", "zipCode"), "Invalid", "validation", "regex"),
                issue("too_big", List.of("items"), "Array must contain at most 1 element(s)",
                        "maximum", 1, "type", "array", "inclusive", true, "exact", false)), issues);
    }

    @Test
    void inlineMemberIsCreatedThroughMembersService() {
        String email = "ada+" + UUID.randomUUID() + "@example.com";
        Map<String, Object> body = prescription(memberId, drugId);
        body.remove("memberId");
        body.put("member", inlineMember(email));
        String newMemberId = post(partner, body).then().statusCode(201).extract().path("memberId");
        JsonObject member = neighbours.member(newMemberId);
        assertNotNull(member);
        assertEquals(email, member.getString("email"));
        List<FakeNeighbours.Call> calls = neighbours.findOrCreateCalls();
        assertEquals(1, calls.size());
        assertEquals(partner, calls.get(0).json().getString("partnerId"));
        assertEquals(email, calls.get(0).json().getJsonObject("member").getString("email"));
    }

    @Test
    void inlineMemberWithKnownEmailIsReused() {
        String email = "Ada+" + UUID.randomUUID() + "@Example.com";
        String existing = neighbours.seedMember(partner, "Ada", "Lovelace", email.toLowerCase());
        Map<String, Object> body = prescription(memberId, drugId);
        body.remove("memberId");
        body.put("member", inlineMember(email));
        post(partner, body).then().statusCode(201).body("memberId", equalTo(existing));
    }

    @Test
    void membersServiceIssuesArePassedThrough() {
        JsonArray issues = new JsonArray().add(new JsonObject().put("code", "invalid_string").put("validation", "regex")
                .put("path", new JsonArray().add("member").add("shippingAddress").add("zipCode")).put("message", "Invalid"));
        neighbours.rejectMembers(issues);
        Map<String, Object> body = prescription(memberId, drugId);
        body.remove("memberId");
        body.put("member", inlineMember("ada+" + UUID.randomUUID() + "@example.com"));
                String answer = post(partner, body).then().statusCode(400).extract().asString();
        assertEquals(new JsonObject().put("error", issues), new JsonObject(answer));
        assertEquals(0, requestCount());
    }

    @Test
    void unknownMemberIdIsMemberNotFound() {
        post(partner, prescription(UUID.randomUUID().toString(), drugId)).then().statusCode(400)
                .body("", equalTo(error("Member not found")));
    }

    @Test
    void malformedMemberIdIsMemberNotFound() {
        post(partner, prescription("not-a-uuid", drugId)).then().statusCode(400).body("", equalTo(error("Member not found")));
    }

    @Test
    void anotherPartnersMemberIsMemberNotFound() {
        String foreign = neighbours.seedMember(newPartner(), "Eve", "Other", "eve+" + UUID.randomUUID() + "@example.com");
        post(partner, prescription(foreign, drugId)).then().statusCode(400).body("", equalTo(error("Member not found")));
        assertEquals(0, requestCount());
    }

    @Test
    void inlineMemberStaysWhenTheDrugCheckFailsLater() {
        String email = "ada+" + UUID.randomUUID() + "@example.com";
        Map<String, Object> body = prescription(memberId, "no-such-drug-" + UUID.randomUUID());
        body.remove("memberId");
        body.put("member", inlineMember(email));
        post(partner, body).then().statusCode(400);
        assertEquals(1, neighbours.findOrCreateCalls().size());
        assertEquals(1, neighbours.membersOf(partner).stream().filter(member -> member.getString("email").equals(email)).count());
        assertEquals(0, requestCount());
    }

    // --- notes ---

    @Test
    void neitherCaseNotesNorSurveyIsAnIssue() {
        Map<String, Object> body = prescription(memberId, drugId);
        body.remove("caseNotes");
        post(partner, body).then().statusCode(400)
                .body("error", equalTo(List.of(issue("custom", List.of("caseNotes"), "Either caseNotes or v2SurveyResponseId is required"))));
    }

    @Test
    void unknownSurveyResponseIsNotFound() {
        Map<String, Object> body = prescription(memberId, drugId);
        body.remove("caseNotes");
        body.put("v2SurveyResponseId", UUID.randomUUID().toString());
        post(partner, body).then().statusCode(400).body("", equalTo(error("v2SurveyResponseId not found")));
        assertEquals(0, requestCount());
    }

    @Test
    void emptyCaseNotesIsTooSmall() {
        Map<String, Object> body = prescription(memberId, drugId);
        body.put("caseNotes", "");
        post(partner, body).then().statusCode(400).body("error", equalTo(List.of(issue("too_small", List.of("caseNotes"),
                "String must contain at least 1 character(s)", "minimum", 1, "type", "string", "inclusive", true, "exact", false))));
    }

    // --- items and drug checks ---

    @Test
    void moreThanOneItemIsTooBig() {
        Map<String, Object> body = prescription(memberId, drugId);
        body.put("items", List.of(item(drugId), item(drugId)));
        post(partner, body).then().statusCode(400).body("error", equalTo(List.of(issue("too_big", List.of("items"),
                "Array must contain at most 1 element(s)", "maximum", 1, "type", "array", "inclusive", true, "exact", false))));
        assertEquals(0, requestCount());
    }

    @Test
    void unknownDrugIsNotFound() {
        String unknown = "unknown-" + UUID.randomUUID();
        post(partner, prescription(memberId, unknown)).then().statusCode(400)
                .body("", equalTo(error("Invalid drugId - drug not found: " + unknown)));
    }

    @Test
    void drugOutsideThePartnersCatalogueIsForbidden() {
        String other = newDrugId();
        neighbours.drug(other, "Other", List.of("5mg"), newPartner());
        post(partner, prescription(memberId, other)).then().statusCode(403)
                .body("", equalTo(error("Partner does not have access to drug: " + other)));
        assertEquals(0, requestCount());
    }

    @Test
    void requestedSkuIdMustBeOneOfTheDrugsSkus() {
        Map<String, Object> body = prescription(memberId, drugId);
        body.put("items", List.of(Map.of("drugId", drugId, "requestedSkuId", "sku_nope")));
        post(partner, body).then().statusCode(400)
                .body("", equalTo(error("Invalid requestedSkuId for " + drugId + ": sku_nope")));
        body.put("items", List.of(Map.of("drugId", drugId, "requestedSkuId", FakeNeighbours.skuId(drugId, 1))));
        post(partner, body).then().statusCode(201);
    }

    @Test
    void dosageMustBeOneOfTheDrugsLabels() {
        Map<String, Object> body = prescription(memberId, drugId);
        body.put("items", List.of(Map.of("drugId", drugId, "dosage", "2mg")));
        post(partner, body).then().statusCode(400)
                .body("", equalTo(error("Invalid dosage for " + drugId + ". Available dosages: 0.25mg, 0.5mg, 1mg")));
        body.put("items", List.of(Map.of("drugId", drugId, "dosage", "1mg")));
        post(partner, body).then().statusCode(201);
    }

    // --- pharmacySendAt ---

    private Map<String, Object> sendAt(String value) {
        Map<String, Object> body = prescription(memberId, drugId);
        body.put("pharmacySendAt", value);
        return body;
    }

    @Test
    void malformedPharmacySendAtIsInvalidDatetime() {
        post(partner, sendAt("next tuesday")).then().statusCode(400).body("error", equalTo(List.of(
                issue("invalid_string", List.of("pharmacySendAt"), "Invalid datetime", "validation", "datetime"))));
    }

    @Test
    void pharmacySendAtWithoutOffsetIsInvalidDatetime() {
        String local = Instant.now().plus(2, ChronoUnit.DAYS).toString().replace("Z", "");
        post(partner, sendAt(local)).then().statusCode(400).body("error", equalTo(List.of(
                issue("invalid_string", List.of("pharmacySendAt"), "Invalid datetime", "validation", "datetime"))));
    }

    @Test
    void pharmacySendAtInThePastIsAnIssue() {
        String past = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MILLIS).toString();
        post(partner, sendAt(past)).then().statusCode(400).body("error", equalTo(List.of(
                issue("custom", List.of("pharmacySendAt"), "pharmacySendAt must be in the future"))));
        assertEquals(0, requestCount());
    }

    @Test
    void pharmacySendAtInTheFutureIsAccepted() {
        post(partner, sendAt(Instant.now().plus(3, ChronoUnit.DAYS).truncatedTo(ChronoUnit.MILLIS).toString())).then().statusCode(201);
        post(partner, sendAt("2099-01-01T10:00:00+02:00")).then().statusCode(201);
    }
}
