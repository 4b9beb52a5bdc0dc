package com.telemed.web.console.admin;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.putRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.telemed.web.console.ConsoleCalls.as;
import static com.telemed.web.console.ConsoleCalls.assertSeeOther;
import static com.telemed.web.console.ConsoleCalls.formAs;
import static com.telemed.web.console.ConsoleCalls.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.http.Fault;
import com.telemed.web.Neighbours;
import com.telemed.web.console.ConsoleCalls;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The intake surveys pages: finding one, its form (title, drug ids, questions as JSON), the API's issues, a new one; who may use them. */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class SurveysPageTest {

    static final String QUESTIONS = "[{\"id\":\"q1\",\"text\":\"Pregnant?\",\"type\":\"boolean\",\"required\":true,\"disqualifyWhen\":{\"equals\":true}}]";
    static final String SURVEY = "{\"survey\":{\"id\":\"weight-intake\",\"title\":\"Weight <intake>\",\"drugIds\":[\"semaglutide\",\"tirzepatide\"],"
            + "\"questions\":" + QUESTIONS + ",\"createdAt\":\"2030-01-01T00:00:00Z\",\"updatedAt\":\"2030-02-03T04:05:06Z\"}}";

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    static void surveyIs() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/surveys/weight-intake")).willReturn(okJson(SURVEY)));
    }

    static void putAnswers(int status, String body) {
        Neighbours.gateway().stubFor(put(urlPathEqualTo("/ops/v1/surveys/weight-intake")).willReturn(aResponse().withStatus(status)
                .withHeader("Content-Type", "application/json").withBody(body)));
    }

    @Test
    void theSurveysPageIsTheFindFormAndItLeadsToTheSurvey() {
        Document page = page(as(ConsoleCalls.admin()).get("/console/surveys"), 200);
        assertEquals("Surveys", page.selectFirst("h1").text());
        Element find = page.selectFirst("form[method=get][action=/console/surveys]");
        assertEquals("surveyId", find.selectFirst("#surveyId").attr("name"));
        assertEquals("Survey id", page.selectFirst("label[for=surveyId]").text());
        Neighbours.gateway().verify(0, anyRequestedFor(urlMatching("(?!/ops/v1/conversations\\?).*")));
        Neighbours.reset();
        assertSeeOther(as(ConsoleCalls.admin()).redirects().follow(false).get("/console/surveys?surveyId=%20weight-intake%20"),
                "/console/surveys/weight-intake");
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aSurveysFormIsFilledFromTheApi() throws Exception {
        surveyIs();
        Document page = page(as(ConsoleCalls.admin()).get("/console/surveys/weight-intake"), 200);
        assertEquals("Survey", page.selectFirst("h1").text());
        Element form = page.selectFirst("form[method=post][action=/console/surveys/weight-intake]");
        assertEquals("Weight <intake>", form.selectFirst("#title").val());
        assertEquals("semaglutide, tirzepatide", form.selectFirst("#drugIds").val());
        ObjectMapper json = new ObjectMapper();
        assertEquals(json.readTree(QUESTIONS), json.readTree(form.selectFirst("textarea#questions").text()));
        assertEquals("Questions (JSON)", page.selectFirst("label[for=questions]").text());
        assertEquals("Title", page.selectFirst("label[for=title]").text());
        assertEquals("2030-02-03 04:05", page.selectFirst("#survey-updated").text());
        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo("/ops/v1/surveys/weight-intake"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)));
    }

    @Test
    void savingSendsTheTitleTheDrugIdsAndTheQuestions() {
        putAnswers(200, SURVEY);
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        assertSeeOther(formAs(admin).redirects().follow(false).formParam("csrf", admin.csrf()).formParam("title", "Weight")
                .formParam("drugIds", " semaglutide, ,tirzepatide ").formParam("questions", QUESTIONS).post("/console/surveys/weight-intake"),
                "/console/surveys/weight-intake?done=saved");
        Neighbours.gateway().verify(1, putRequestedFor(urlPathEqualTo("/ops/v1/surveys/weight-intake"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN))
                .withRequestBody(equalToJson("{\"title\":\"Weight\",\"drugIds\":[\"semaglutide\",\"tirzepatide\"],\"questions\":" + QUESTIONS + "}")));
        surveyIs();
        assertEquals("Survey saved", page(as(admin).get("/console/surveys/weight-intake?done=saved"), 200).selectFirst("p#notice[role=status]").text());
    }

    @Test
    void questionsThatAreNotJsonAreRefusedNextToTheirFieldAndNothingIsAsked() {
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        Document page = page(formAs(admin).formParam("csrf", admin.csrf()).formParam("title", "Weight").formParam("drugIds", "semaglutide")
                .formParam("questions", "[{\"id\": 1").post("/console/surveys/weight-intake"), 400);
        assertEquals("Enter the questions as a JSON array", page.selectFirst("p.field-error#error-questions").text());
        assertEquals("true", page.selectFirst("#questions").attr("aria-invalid"));
        assertEquals("[{\"id\": 1", page.selectFirst("#questions").text());
        assertEquals("Weight", page.selectFirst("#title").val());
        Neighbours.gateway().verify(0, anyRequestedFor(urlMatching("(?!/ops/v1/conversations\\?).*")));
    }

    @Test
    void theApisIssuesAreShownNextToTheirFields() {
        putAnswers(400, "{\"error\":[{\"code\":\"too_small\",\"path\":[\"title\"],\"message\":\"String must contain at least 1 character(s)\"},"
                + "{\"code\":\"invalid_enum_value\",\"path\":[\"questions\",0,\"type\"],\"message\":\"Invalid enum value\"}]}");
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        Document page = page(formAs(admin).formParam("csrf", admin.csrf()).formParam("title", "").formParam("drugIds", "semaglutide")
                .formParam("questions", "[{\"id\":\"q1\",\"type\":\"essay\"}]").post("/console/surveys/weight-intake"), 400);
        assertTrue(page.title().startsWith("Error: "));
        assertEquals("String must contain at least 1 character(s)", page.selectFirst("#error-title").text());
        assertEquals("error-title", page.selectFirst("#title").attr("aria-describedby"));
        assertEquals("questions 0 type: Invalid enum value", page.selectFirst("#error-questions").text());
        assertEquals("[{\"id\":\"q1\",\"type\":\"essay\"}]", page.selectFirst("#questions").text());
        assertEquals("semaglutide", page.selectFirst("#drugIds").val());
        assertNull(page.selectFirst("#error-drugIds"));
        Neighbours.gateway().verify(1, putRequestedFor(urlPathEqualTo("/ops/v1/surveys/weight-intake")).withRequestBody(equalToJson(
                "{\"title\":\"\",\"drugIds\":[\"semaglutide\"],\"questions\":[{\"id\":\"q1\",\"type\":\"essay\"}]}")));
    }

    @Test
    void anUnknownSurveyIsTheFormThatCreatesIt() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/surveys/new-one")).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Survey not found\"}")));
        Document page = page(as(ConsoleCalls.admin()).get("/console/surveys/new-one"), 200);
        assertEquals("New survey", page.selectFirst("h1").text());
        assertEquals("", page.selectFirst("#title").val());
        assertEquals("[]", page.selectFirst("#questions").text());
        assertEquals("/console/surveys/new-one", page.selectFirst("form.survey-form").attr("action"));
    }

    @Test
    void aFormWithoutTheSessionsTokenIsRefusedAndNothingIsAsked() {
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        for (Response response : List.of(formAs(admin).formParam("title", "X").formParam("questions", "[]").post("/console/surveys/weight-intake"),
                formAs(admin).formParam("csrf", "nope").formParam("questions", "[]").post("/console/surveys/weight-intake"))) {
            assertEquals("This form has expired. Reload the page and try again.", page(response, 403).selectFirst("h1 + p").text());
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aPrescriberOrSupportGetsTheForbiddenPageAndNothingIsAsked() {
        for (ConsoleCalls.TestSession session : List.of(ConsoleCalls.prescriber(), ConsoleCalls.support())) {
            for (Response response : List.of(as(session).get("/console/surveys"), as(session).get("/console/surveys?surveyId=x"),
                    as(session).get("/console/surveys/weight-intake"),
                    formAs(session).formParam("csrf", session.csrf()).formParam("questions", "[]").post("/console/surveys/weight-intake"))) {
                Document page = page(response, 403);
                assertEquals("You do not have access to this page.", page.selectFirst("h1 + p").text());
                assertFalse(page.select("header nav a").stream().map(Element::text).toList().contains("Surveys"));
            }
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void theGatewaysFailuresAreItsPages() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/surveys/weight-intake")).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        assertEquals("Sorry, the service is unavailable", page(as(ConsoleCalls.admin()).get("/console/surveys/weight-intake"), 503).selectFirst("h1").text());
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/surveys/weight-intake")).willReturn(aResponse().withStatus(401)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Invalid token\"}")));
        assertSeeOther(as(ConsoleCalls.admin()).redirects().follow(false).get("/console/surveys/weight-intake"), "/console/sign-in");
        putAnswers(500, "{}");
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        assertEquals("Sorry, the service is unavailable", page(formAs(admin).formParam("csrf", admin.csrf()).formParam("title", "X")
                .formParam("questions", "[]").post("/console/surveys/weight-intake"), 503).selectFirst("h1").text());
    }
}
