package com.telemed.requests.survey;

import static com.telemed.requests.request.RequestFixtures.error;
import static com.telemed.requests.survey.SurveyFixtures.as;
import static com.telemed.requests.survey.SurveyFixtures.contact;
import static com.telemed.requests.survey.SurveyFixtures.defineIntake;
import static com.telemed.requests.survey.SurveyFixtures.definition;
import static com.telemed.requests.survey.SurveyFixtures.disqualifying;
import static com.telemed.requests.survey.SurveyFixtures.newSurveyId;
import static com.telemed.requests.survey.SurveyFixtures.put;
import static com.telemed.requests.survey.SurveyFixtures.qualifying;
import static com.telemed.requests.survey.SurveyFixtures.question;
import static com.telemed.requests.survey.SurveyFixtures.submission;
import static com.telemed.requests.survey.SurveyFixtures.submitWithToken;
import static com.telemed.requests.survey.SurveyFixtures.submitted;
import static com.telemed.requests.survey.SurveyFixtures.token;
import static com.telemed.requests.survey.SurveyFixtures.withOptions;
import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static com.telemed.testkit.quarkus.ServiceDatabase.rows;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.PartnerWithDrugAndMember;
import com.telemed.requests.request.RequestFixtures;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /v1/requests} with {@code v2SurveyResponseId} (partner-api.md, Requests): the
 * response must exist and be the partner's, backs one request only, is linked to the request and
 * member, and its summary is written to {@code caseNotes} (after the partner's text and a
 * separator line when both are sent). A refused create leaves no request.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class SurveyBackedRequestTest extends PartnerWithDrugAndMember {

    /** The summary of {@link SurveyFixtures#qualifying()}. */
    static final String QUALIFYING_SUMMARY = "Are you pregnant?: No\nWhat is your goal?: lose\nYour weight in pounds: 180";

    String surveyId;

    @BeforeEach
    void survey() {
        surveyId = defineIntake(drugId);
    }

    private Map<String, Object> body(String responseId, String caseNotes) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("memberId", memberId);
        body.put("items", List.of(Map.of("drugId", drugId)));
        if (caseNotes != null) {
            body.put("caseNotes", caseNotes);
        }
        body.put("v2SurveyResponseId", responseId);
        return body;
    }

    private static Response create(String partnerId, Object body) {
        return as(partnerId).contentType("application/json").body(body).post("/v1/requests");
    }

    private String caseNotes(String requestId) {
        return RequestFixtures.get(partner, requestId).then().statusCode(200).extract().path("caseNotes");
    }

    private long requests() {
        return count("SELECT count(*) FROM requests WHERE partner_id = ?", partner);
    }

    @Test
    void theSummaryBecomesTheCaseNotesAndTheResponseIsLinked() {
        String responseId = submitted(partner, surveyId, submission(qualifying(), contact("Ada", "Lovelace", "ada@example.com")));
        String requestId = create(partner, body(responseId, null)).then().statusCode(201)
                .body("memberId", equalTo(memberId)).extract().path("requestId");
        assertEquals(QUALIFYING_SUMMARY, caseNotes(requestId));

        Map<String, Object> link = rows("SELECT request_id::text AS request, member_id::text AS member, linked_at FROM survey_responses"
                + " WHERE id = ?::uuid", responseId).get(0);
        assertEquals(requestId, link.get("request"));
        assertEquals(memberId, link.get("member"));
        assertNotNull(link.get("linked_at"));
        assertEquals(responseId, rows("SELECT survey_response_id FROM requests WHERE id = ?::uuid", requestId).get(0)
                .get("survey_response_id"));
        // The partner now reads the response with its member.
        as(partner).get("/v2/public/responses/" + responseId).then().statusCode(200).body("response.memberId", equalTo(memberId));
    }

    @Test
    void thePartnersTextComesFirstThenASeparatorLineThenTheSummary() {
        String responseId = submitted(partner, surveyId, submission(qualifying(), null));
        String requestId = create(partner, body(responseId, "Patient asked about side effects")).then().statusCode(201)
                .extract().path("requestId");
        assertEquals("Patient asked about side effects\n---\n" + QUALIFYING_SUMMARY, caseNotes(requestId));
    }

    /** Booleans Yes/No, numbers plain, choices and texts as given, line breaks as spaces, unanswered questions left out. */
    @Test
    void eachAnswerIsWrittenOnItsOwnLine() {
        String formats = newSurveyId();
        String drug = RequestFixtures.newDrugId();
        neighbours.drug(drug, "Other", List.of("1mg"), partner);
        put(formats, definition("Formats", List.of(drug), List.of(
                question("smoker", "Do you smoke?", "boolean", true),
                disqualifying(question("bmi", "Your BMI", "number", true), 50),
                question("dose", "Preferred\ndose", "number", false),
                withOptions(question("when", "When?", "choice", false), "morning", "evening"),
                question("skipped", "Left out?", "text", false),
                question("story", "Tell us more", "text", false)))).then().statusCode(200);
        // Raw JSON: 31.50 and 1e2 reach the service as written.
        String responseId = as(partner).contentType("application/json").body("""
                        {"answers": {"smoker": true, "bmi": 31.50, "dose": 1e2, "when": "evening", "skipped": null,
                         "story": "First line\\nsecond line\\r\\nthird"}}""")
                .post("/v2/embed/surveys/" + formats + "/responses").then().statusCode(201).extract().path("responseId");
        as(partner).get("/v2/public/responses/" + responseId).then().statusCode(200)
                .body("response.answers.bmi", equalTo(31.5f))
                .body("response.answers.dose", equalTo(100));
        Map<String, Object> body = body(responseId, null);
        body.put("items", List.of(Map.of("drugId", drug)));
        String requestId = create(partner, body).then().statusCode(201).extract().path("requestId");
        assertEquals("Do you smoke?: Yes\nYour BMI: 31.5\nPreferred dose: 100\nWhen?: evening\n"
                + "Tell us more: First line second line third", caseNotes(requestId));
    }

    @Test
    void anUnknownOrMalformedResponseIsNotFound() {
        create(partner, body(UUID.randomUUID().toString(), null)).then().statusCode(400)
                .body("", equalTo(error("v2SurveyResponseId not found")));
        create(partner, body("not-a-uuid", "Notes")).then().statusCode(400).body("", equalTo(error("v2SurveyResponseId not found")));
        assertEquals(0, requests());
    }

    @Test
    void partnerAsResponseIsRefusedOnPartnerBsRequest() {
        String responseId = submitted(partner, surveyId, submission(qualifying(), null));
        String other = RequestFixtures.newPartner();
        neighbours.drug(drugId, "Semaglutide", dosages(), partner, other);
        String otherMember = neighbours.seedMember(other, "Alan", "Turing", "alan+" + UUID.randomUUID() + "@example.com");
        Map<String, Object> body = body(responseId, "Notes");
        body.put("memberId", otherMember);
        create(other, body).then().statusCode(400).body("", equalTo(error("v2SurveyResponseId does not belong to this partner")));
        assertEquals(0, count("SELECT count(*) FROM requests WHERE partner_id = ?", other));
        assertEquals(0, count("SELECT count(*) FROM survey_responses WHERE id = ?::uuid AND request_id IS NOT NULL", responseId));
        // Still free for its own partner.
        create(partner, body(responseId, null)).then().statusCode(201);
    }

    @Test
    void aResponseBacksOneRequestOnlyUntilThatRequestIsDeleted() {
        String responseId = submitted(partner, surveyId, submission(qualifying(), null));
        String first = create(partner, body(responseId, null)).then().statusCode(201).extract().path("requestId");
        create(partner, body(responseId, "Again")).then().statusCode(400)
                .body("", equalTo(error("v2SurveyResponseId has already been used for a request")));
        assertEquals(1, requests());

        // A replay of the first create's key is a replay, not a second use.
        String key = "key-" + UUID.randomUUID();
        String responseTwo = submitted(partner, surveyId, submission(qualifying(), null));
        String keyed = as(partner).contentType("application/json").header("Idempotency-Key", key).body(body(responseTwo, null))
                .post("/v1/requests").then().statusCode(201).extract().path("requestId");
        as(partner).contentType("application/json").header("Idempotency-Key", key).body(body(responseTwo, null))
                .post("/v1/requests").then().statusCode(200).body("requestId", equalTo(keyed)).body("idempotentReplay", equalTo(true));

        // A deleted (pending) request lets its response go.
        as(partner).delete("/v1/requests/" + first).then().statusCode(204);
        String again = create(partner, body(responseId, null)).then().statusCode(201).extract().path("requestId");
        assertEquals(QUALIFYING_SUMMARY, caseNotes(again));
    }

    @Test
    void aReturningMembersResponseBacksThatMembersRequestOnly() {
        String token = token(partner, memberId, surveyId);
        String responseId = submitWithToken(partner, token, Map.of("answers", qualifying())).then().statusCode(201)
                .extract().path("responseId");
        String otherMember = neighbours.seedMember(partner, "Alan", "Turing", "alan+" + UUID.randomUUID() + "@example.com");
        Map<String, Object> forOther = body(responseId, "Notes");
        forOther.put("memberId", otherMember);
        create(partner, forOther).then().statusCode(400).body("", equalTo(error("v2SurveyResponseId belongs to another member")));
        assertEquals(0, requests());
        String requestId = create(partner, body(responseId, null)).then().statusCode(201).extract().path("requestId");
        assertEquals(QUALIFYING_SUMMARY, caseNotes(requestId));
    }

    @Test
    void aSurveyResponseWithOtherChecksFailingLeavesNoRequestAndStaysFree() {
        String responseId = submitted(partner, surveyId, submission(qualifying(), null));
        Map<String, Object> body = body(responseId, null);
        String unknown = "unknown-" + UUID.randomUUID();
        body.put("items", List.of(Map.of("drugId", unknown)));
        create(partner, body).then().statusCode(400).body("", equalTo(error("Invalid drugId - drug not found: " + unknown)));
        assertEquals(0, requests());
        assertEquals(0, count("SELECT count(*) FROM survey_responses WHERE id = ?::uuid AND request_id IS NOT NULL", responseId));
        create(partner, body(responseId, null)).then().statusCode(201);
    }
}
