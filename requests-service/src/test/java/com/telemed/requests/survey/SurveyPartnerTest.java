package com.telemed.requests.survey;

import static com.telemed.requests.request.RequestFixtures.error;
import static com.telemed.requests.request.RequestFixtures.issue;
import static com.telemed.requests.survey.SurveyFixtures.as;
import static com.telemed.requests.survey.SurveyFixtures.contact;
import static com.telemed.requests.survey.SurveyFixtures.defineIntake;
import static com.telemed.requests.survey.SurveyFixtures.mintToken;
import static com.telemed.requests.survey.SurveyFixtures.qualifying;
import static com.telemed.requests.survey.SurveyFixtures.submission;
import static com.telemed.requests.survey.SurveyFixtures.submitted;
import static com.telemed.testkit.quarkus.ServiceDatabase.rows;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.PartnerWithDrugAndMember;
import com.telemed.requests.request.RequestFixtures;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The partner's survey calls (API key, partner from {@code X-Partner-Id}): lookup by drug, tokens
 * for returning members, the public definition and the partner's own responses.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class SurveyPartnerTest extends PartnerWithDrugAndMember {

    // --- lookup ---

    @Test
    void lookupFindsTheDrugsIntakeSurvey() {
        String surveyId = defineIntake(drugId);
        as(partner).queryParam("drugId", drugId).get("/v1/surveys/v2/lookup").then().statusCode(200)
                .body("", equalTo(Map.of("surveyId", surveyId)));
        // Surveys are platform-wide: any partner finds it.
        as(RequestFixtures.newPartner()).queryParam("drugId", drugId).get("/v1/surveys/v2/lookup").then().statusCode(200)
                .body("surveyId", equalTo(surveyId));
    }

    @Test
    void lookupOfADrugWithoutSurveyIsNotFoundAndTheQueryIsChecked() {
        as(partner).queryParam("drugId", RequestFixtures.newDrugId()).get("/v1/surveys/v2/lookup").then().statusCode(404)
                .body("", equalTo(error("Survey not found")));
        as(partner).queryParam("drugId", "not a slug").get("/v1/surveys/v2/lookup").then().statusCode(404)
                .body("", equalTo(error("Survey not found")));
        as(partner).get("/v1/surveys/v2/lookup").then().statusCode(400).body("error", equalTo(List.of(
                issue("invalid_type", List.of("drugId"), "Required", "expected", "string", "received", "undefined"))));
        // An empty value counts as absent.
        as(partner).queryParam("drugId", "").get("/v1/surveys/v2/lookup").then().statusCode(400).body("error", equalTo(List.of(
                issue("invalid_type", List.of("drugId"), "Required", "expected", "string", "received", "undefined"))));
        as(partner).queryParam("drugId", "d".repeat(129)).get("/v1/surveys/v2/lookup").then().statusCode(400)
                .body("error", equalTo(List.of(issue("too_big", List.of("drugId"), "String must contain at most 128 character(s)",
                        "maximum", 128, "type", "string", "inclusive", true, "exact", false))));
        given().queryParam("drugId", drugId).get("/v1/surveys/v2/lookup").then().statusCode(401)
                .body("", equalTo(error("API Key missing")));
    }

    // --- tokens ---

    @Test
    void aTokenIsRandomUrlSafeValidFor24HoursAndStoredOnlyAsItsHash() {
        String surveyId = defineIntake(drugId);
        Instant before = Instant.now();
        Map<String, Object> answer = mintToken(partner, memberId, surveyId).then().statusCode(201).extract().jsonPath().getMap("");
        assertEquals(List.of("token", "expiresAt"), List.copyOf(answer.keySet()));
        String token = (String) answer.get("token");
        // 32 random bytes, base64url without padding: 43 characters, 256 bits.
        assertTrue(token.matches("^[A-Za-z0-9_-]{43}$"), token);
        String expiresAt = (String) answer.get("expiresAt");
        assertTrue(expiresAt.matches(SurveyFixtures.TIMESTAMP), expiresAt);

        List<Map<String, Object>> stored = rows("SELECT token_hash, partner_id, member_id::text AS member, survey_id, created_at,"
                + " expires_at, used_at FROM survey_tokens WHERE token_hash = ?", SurveyTokens.hash(token));
        assertEquals(1, stored.size());
        Map<String, Object> row = stored.get(0);
        assertEquals(partner, row.get("partner_id"));
        assertEquals(memberId, row.get("member"));
        assertEquals(surveyId, row.get("survey_id"));
        assertEquals(null, row.get("used_at"));
        Instant createdAt = ((java.sql.Timestamp) row.get("created_at")).toInstant();
        Instant stored24 = ((java.sql.Timestamp) row.get("expires_at")).toInstant();
        assertEquals(createdAt.plus(Duration.ofHours(24)), stored24);
        assertEquals(Instant.parse(expiresAt), stored24);
        assertFalse(createdAt.isBefore(before.minusSeconds(1)), createdAt.toString());
        // Nowhere in the table is the token itself.
        assertEquals(0, rows("SELECT 1 FROM survey_tokens t WHERE t::text LIKE ?", "%" + token + "%").size());

        String another = SurveyFixtures.token(partner, memberId, surveyId);
        assertFalse(another.equals(token));
    }

    @Test
    void aTokenNeedsTheSurveyAndOneOfThePartnersMembers() {
        String surveyId = defineIntake(drugId);
        String unknownSurvey = SurveyFixtures.newSurveyId();
        neighbours.clearCalls();
        mintToken(partner, memberId, unknownSurvey).then().statusCode(404).body("", equalTo(error("Survey not found")));
        assertEquals(List.of(), neighbours.calls().stream().filter(FakeNeighbours::toMembers).toList(),
                "an unknown survey asks members-service nothing");

        mintToken(partner, UUID.randomUUID().toString(), surveyId).then().statusCode(404).body("", equalTo(error("Member not found")));
        String foreign = neighbours.seedMember(RequestFixtures.newPartner(), "Alan", "Turing", "alan+" + UUID.randomUUID() + "@example.com");
        mintToken(partner, foreign, surveyId).then().statusCode(404).body("", equalTo(error("Member not found")));
        mintToken(partner, "not-a-uuid", surveyId).then().statusCode(404).body("", equalTo(error("Member not found")));
        assertEquals(0, rows("SELECT 1 FROM survey_tokens WHERE survey_id = ?", surveyId).size());

        as(partner).contentType("application/json").body("{}").post("/v1/surveys/v2/tokens").then().statusCode(400)
                .body("error", equalTo(List.of(
                        issue("invalid_type", List.of("memberId"), "Required", "expected", "string", "received", "undefined"),
                        issue("invalid_type", List.of("surveyId"), "Required", "expected", "string", "received", "undefined"))));
        Map<String, Object> wrongTypes = new LinkedHashMap<>();
        wrongTypes.put("memberId", 7);
        wrongTypes.put("surveyId", "");
        as(partner).contentType("application/json").body(wrongTypes).post("/v1/surveys/v2/tokens").then().statusCode(400)
                .body("error", equalTo(List.of(
                        issue("invalid_type", List.of("memberId"), "Expected string, received number", "expected", "string",
                                "received", "number"),
                        issue("too_small", List.of("surveyId"), "String must contain at least 1 character(s)",
                                "minimum", 1, "type", "string", "inclusive", true, "exact", false))));
        given().contentType("application/json").body(Map.of("memberId", memberId, "surveyId", surveyId))
                .post("/v1/surveys/v2/tokens").then().statusCode(401).body("", equalTo(error("API Key missing")));
    }

    // --- public definition and responses ---

    @Test
    void thePublicDefinitionIsTheWholeDefinition() {
        String surveyId = defineIntake(drugId);
        Map<String, Object> operators = given().get("/ops/v1/surveys/" + surveyId).then().statusCode(200).extract().jsonPath().getMap("");
        assertEquals(operators, as(partner).get("/v2/public/surveys/" + surveyId).then().statusCode(200).extract().jsonPath().getMap(""));
        as(partner).get("/v2/public/surveys/" + surveyId).then().body("survey.questions[0].disqualifyWhen.equals", equalTo(true));
        as(partner).get("/v2/public/surveys/" + SurveyFixtures.newSurveyId()).then().statusCode(404)
                .body("", equalTo(error("Survey not found")));
        given().get("/v2/public/surveys/" + surveyId).then().statusCode(401).body("", equalTo(error("API Key missing")));
    }

    @Test
    void thePartnerReadsItsOwnResponsesOnly() {
        String surveyId = defineIntake(drugId);
        Map<String, Object> answers = new LinkedHashMap<>(qualifying());
        answers.put("notes", "Line one\nline two");
        String responseId = submitted(partner, surveyId, submission(answers, contact("Ada", "Lovelace", "ada@example.com")));

        Map<String, Object> read = as(partner).get("/v2/public/responses/" + responseId).then().statusCode(200)
                .extract().jsonPath().getMap("response");
        String createdAt = (String) read.get("createdAt");
        assertTrue(createdAt.matches(SurveyFixtures.TIMESTAMP), createdAt);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("id", responseId);
        expected.put("surveyId", surveyId);
        expected.put("mode", "initial");
        expected.put("memberId", null);
        expected.put("answers", answers);
        expected.put("contact", contact("Ada", "Lovelace", "ada@example.com"));
        expected.put("qualified", true);
        expected.put("drugIds", List.of(drugId));
        expected.put("createdAt", createdAt);
        assertEquals(expected, read);
        assertEquals(List.of("id", "surveyId", "mode", "memberId", "answers", "contact", "qualified", "drugIds", "createdAt"),
                List.copyOf(read.keySet()));
        OffsetDateTime.parse(createdAt);

        String other = RequestFixtures.newPartner();
        as(other).get("/v2/public/responses/" + responseId).then().statusCode(404).body("", equalTo(error("Survey response not found")));
        as(partner).get("/v2/public/responses/" + UUID.randomUUID()).then().statusCode(404)
                .body("", equalTo(error("Survey response not found")));
        as(partner).get("/v2/public/responses/not-a-uuid").then().statusCode(404).body("", equalTo(error("Survey response not found")));
        given().get("/v2/public/responses/" + responseId).then().statusCode(401).body("", equalTo(error("API Key missing")));
    }

    @Test
    void aResponseWithoutContactShowsNullAndSkipsUnansweredQuestions() {
        String surveyId = defineIntake(drugId);
        Map<String, Object> answers = new LinkedHashMap<>(qualifying());
        answers.put("notes", null);
        String responseId = submitted(partner, surveyId, submission(answers, null));
        Map<String, Object> read = as(partner).get("/v2/public/responses/" + responseId).then().statusCode(200)
                .extract().jsonPath().getMap("response");
        assertEquals(qualifying(), read.get("answers"));
        assertTrue(read.containsKey("contact"));
        assertEquals(null, read.get("contact"));
    }
}
