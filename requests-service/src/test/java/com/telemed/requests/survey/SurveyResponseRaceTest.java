package com.telemed.requests.survey;

import static com.telemed.requests.survey.SurveyFixtures.as;
import static com.telemed.requests.survey.SurveyFixtures.defineIntake;
import static com.telemed.requests.survey.SurveyFixtures.qualifying;
import static com.telemed.requests.survey.SurveyFixtures.submission;
import static com.telemed.requests.survey.SurveyFixtures.submitted;
import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static com.telemed.testkit.quarkus.ServiceDatabase.texts;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.PartnerWithDrugAndMember;
import com.telemed.requests.PatientNeighboursResource;
import com.telemed.testkit.concurrent.Parallel;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * One response, one request: creates with the same {@code v2SurveyResponseId} all pass the early
 * check together (held at the catalogue until every one of them is there), then race to insert;
 * exactly one commits, the others answer 400 and leave no request.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(PatientNeighboursResource.class)
class SurveyResponseRaceTest extends PartnerWithDrugAndMember {

    private static final int CREATES = 6;

    @Test
    void concurrentCreatesWithOneResponseGiveOneRequest() throws Exception {
        String surveyId = defineIntake(drugId);
        String responseId = submitted(partner, surveyId, submission(qualifying(), null));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("memberId", memberId);
        body.put("items", List.of(Map.of("drugId", drugId)));
        body.put("v2SurveyResponseId", responseId);

        neighbours.hold(FakeNeighbours::toCatalogue);
        CompletableFuture<List<String>> answers = CompletableFuture.supplyAsync(() -> {
            try {
                return Parallel.map(CREATES, IntStream.range(0, CREATES).boxed().toList(), index -> {
                    var answer = as(partner).contentType("application/json").body(body).post("/v1/requests");
                    return answer.statusCode() + " " + (answer.statusCode() == 201 ? "created" : answer.jsonPath().getString("error"));
                });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        // Every create has passed the response check and waits for its drug.
        await().atMost(Duration.ofSeconds(30)).until(() -> neighbours.held().size() == CREATES);
        neighbours.release();

        List<String> outcomes = new ArrayList<>(answers.get());
        outcomes.sort(null);
        List<String> expected = new ArrayList<>();
        expected.add("201 created");
        for (int index = 1; index < CREATES; index++) {
            expected.add("400 v2SurveyResponseId has already been used for a request");
        }
        assertEquals(expected, outcomes);
        assertEquals(1, count("SELECT count(*) FROM requests WHERE partner_id = ?", partner));
        assertEquals(texts("SELECT id::text FROM requests WHERE partner_id = ?", partner),
                texts("SELECT request_id::text FROM survey_responses WHERE id = ?::uuid", responseId));
    }
}
