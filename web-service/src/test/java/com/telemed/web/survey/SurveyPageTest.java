package com.telemed.web.survey;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.telemed.web.PageCalls.browser;
import static com.telemed.web.PageCalls.form;
import static com.telemed.web.PageCalls.json;
import static com.telemed.web.PageCalls.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.telemed.testkit.trust.SignedQuarkusTests;
import com.telemed.testkit.trust.TestServiceProofs;
import com.telemed.web.Neighbours;
import com.telemed.web.PageCalls;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The hosted survey pages, a new patient's (key) and a returning member's (token), against stand-ins for requests-service and the gateway. */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class SurveyPageTest {

    static final String PARTNER = "partner-a";
    static final String KEY = "pk_0123456789abcdef0123456789abcdef";
    static final String SURVEY = "weight-intake";
    static final String PAGE = "/surveys/" + SURVEY;
    static final String EMBED = "/v2/embed/surveys/" + SURVEY;
    static final String TOKEN = "tok_Abc-123";
    static final String RESPONSE_ID = "5f0c6a38-0b7e-4d0b-9a43-7a3b2c1d0e9f";
    static final String ORIGINS = "/internal/partners/" + PARTNER + "/embed-origins";

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    static Map<String, Object> question(String id, String text, String type, List<String> options, boolean required) {
        Map<String, Object> question = new LinkedHashMap<>();
        question.put("id", id);
        question.put("text", text);
        question.put("type", type);
        if (options != null) {
            question.put("options", options);
        }
        question.put("required", required);
        return question;
    }

    static String definition(String title, String pregnantText) {
        return json(Map.of("survey", Map.of("id", SURVEY, "title", title, "drugIds", List.of("semaglutide"),
                "createdAt", "2030-01-01T00:00:00.000Z", "updatedAt", "2030-01-01T00:00:00.000Z",
                "questions", List.of(
                        question("pregnant", pregnantText, "boolean", null, true),
                        question("goal", "Your goal", "choice", List.of("lose", "maintain"), true),
                        question("weight", "Your weight in kg", "number", null, true),
                        question("notes", "Anything else we should know?", "text", null, false)))));
    }

    static void survey() {
        Neighbours.requests().stubFor(get(urlPathEqualTo(EMBED)).willReturn(okJson(definition("Weight programme intake", "Are you pregnant?"))));
    }

    static void answer(MappingBuilder call, int status, String body) {
        Neighbours.requests().stubFor(call.willReturn(aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(body)));
    }

    static void submitted() {
        answer(post(urlPathEqualTo(EMBED + "/responses")), 201, "{\"responseId\":\"" + RESPONSE_ID + "\",\"qualified\":true}");
    }

    static void origins(String... origins) {
        Neighbours.gateway().stubFor(get(urlPathEqualTo(ORIGINS)).willReturn(okJson(json(Map.of("origins", List.of(origins))))));
    }

    static String issue(String code, List<String> path, String message, Map<String, Object> details) {
        Map<String, Object> issue = new LinkedHashMap<>();
        issue.put("code", code);
        issue.putAll(details);
        issue.put("path", path);
        issue.put("message", message);
        return json(issue);
    }

    @Test
    void aNewPatientsSurveyShowsEveryQuestionTypeWithTheRequiredOnesMarked() {
        survey();
        Document page = page(browser().header("X-Partner-Id", PARTNER).get(PAGE + "?key=" + KEY), 200);

        assertEquals("Weight programme intake", page.selectFirst("h1").text());
        assertEquals("Weight programme intake", page.title());
        assertEquals("Questions marked (required) must be answered.", page.selectFirst("p.hint").text());
        Element form = page.selectFirst("form#survey-form");
        assertEquals("post", form.attr("method"));
        assertEquals(PAGE + "?key=" + KEY, form.attr("action"));

        // boolean: a fieldset of two radios, Yes (true) and No (false)
        Element pregnant = page.selectFirst("input#q-pregnant").closest("fieldset");
        assertEquals("Are you pregnant? (required)", pregnant.selectFirst("legend").text());
        assertEquals(List.of("true", "false"), pregnant.select("input[type=radio][name=q-pregnant]").eachAttr("value"));
        assertEquals(List.of("Yes", "No"), pregnant.select("label").eachText());
        assertEquals(List.of("q-pregnant", "q-pregnant-1"), pregnant.select("label").eachAttr("for"));
        assertTrue(pregnant.select("input").stream().allMatch(input -> input.hasAttr("required")));
        // choice: one radio per option
        Element goal = page.selectFirst("input#q-goal").closest("fieldset");
        assertEquals("Your goal (required)", goal.selectFirst("legend").text());
        assertEquals(List.of("lose", "maintain"), goal.select("input[type=radio][name=q-goal]").eachAttr("value"));
        // number: a labelled text field with a decimal keyboard
        Element weight = page.selectFirst("input#q-weight");
        assertEquals("Your weight in kg (required)", page.selectFirst("label[for=q-weight]").text());
        assertEquals("decimal", weight.attr("inputmode"));
        assertEquals("q-weight", weight.attr("name"));
        assertTrue(weight.hasAttr("required"));
        // text: a labelled text area, optional
        Element notes = page.selectFirst("textarea#q-notes");
        assertEquals("Anything else we should know?", page.selectFirst("label[for=q-notes]").text());
        assertEquals("2000", notes.attr("maxlength"));
        assertTrue(!notes.hasAttr("required"));
        // the new patient's contact section: optional, three labelled fields
        Element contact = page.selectFirst("fieldset.contact");
        assertEquals("Your contact details (optional)", contact.selectFirst("legend").text());
        assertEquals(List.of("firstName", "lastName", "email"), contact.select("input").eachAttr("name"));
        assertEquals(List.of("First name", "Last name", "Email address"), contact.select("label").eachText());
        assertEquals(List.of("given-name", "family-name", "email"), contact.select("input").eachAttr("autocomplete"));
        assertTrue(page.select(".error-summary, .error-message").isEmpty());

        // The partner the gateway forwarded, in a proven call.
        LoggedRequest read = Neighbours.requests().findAll(getRequestedFor(urlPathEqualTo(EMBED))).get(0);
        assertEquals(PARTNER, read.getHeader("X-Partner-Id"));
        assertEquals("service:web-service", read.getHeader("X-Principal"));
        assertEquals(TestServiceProofs.proof(SignedQuarkusTests.applicationKey(), "GET", EMBED, PARTNER, "service:web-service",
                read.getHeader("X-Service-Timestamp")), read.getHeader("X-Service-Proof"));
        Neighbours.gateway().verify(0, getRequestedFor(urlPathEqualTo(ORIGINS)));
    }

    @Test
    void aSubmissionWithIssuesComesBackWithEachNextToItsFieldAndWhatWasSent() {
        survey();
        answer(post(urlPathEqualTo(EMBED + "/responses")), 400, "{\"error\":[" + String.join(",",
                issue("invalid_type", List.of("answers", "pregnant"), "Required", Map.of("expected", "boolean", "received", "undefined")),
                issue("invalid_type", List.of("answers", "weight"), "Expected number, received string",
                        Map.of("expected", "number", "received", "string")),
                issue("invalid_type", List.of("contact", "lastName"), "Required", Map.of("expected", "string", "received", "undefined")),
                issue("invalid_string", List.of("contact", "email"), "Invalid email", Map.of("validation", "email"))) + "]}");
        Response answer = form().header("X-Partner-Id", PARTNER)
                .formParam("q-goal", "lose").formParam("q-weight", "seventy").formParam("q-notes", "<b>Not</b> \"bold\" & café")
                .formParam("firstName", " Ann ").formParam("lastName", "").formParam("email", "ann@")
                .post(PAGE + "?key=" + KEY);
        Document page = page(answer, 400);

        // Sent as the embed sends it: typed answers, blanks left out, contact as filled in.
        Neighbours.requests().verify(postRequestedFor(urlPathEqualTo(EMBED + "/responses")).withHeader("X-Partner-Id", equalTo(PARTNER))
                .withRequestBody(equalToJson("{\"answers\":{\"goal\":\"lose\",\"weight\":\"seventy\",\"notes\":\"<b>Not</b> \\\"bold\\\" & café\"},"
                        + "\"contact\":{\"firstName\":\"Ann\",\"email\":\"ann@\"}}")));

        assertEquals("Error: Weight programme intake", page.title());
        Element summary = page.selectFirst("div.error-summary[role=alert]");
        assertEquals(List.of("Select yes or no", "Enter a number, like 12 or 12.5", "Enter your last name",
                "Enter an email address in the correct format, like name@example.com"), summary.select("a").eachText());
        assertEquals(List.of("#q-pregnant", "#q-weight", "#contact-lastName", "#contact-email"), summary.select("a").eachAttr("href"));

        Element pregnant = page.selectFirst("input#q-pregnant").closest("fieldset");
        assertEquals("q-pregnant-error", pregnant.attr("aria-describedby"));
        assertEquals("Error: Select yes or no", page.selectFirst("#q-pregnant-error").text());
        Element weight = page.selectFirst("input#q-weight");
        assertEquals("q-weight-error", weight.attr("aria-describedby"));
        assertEquals("true", weight.attr("aria-invalid"));
        assertEquals("seventy", weight.val());
        assertEquals("Error: Enter a number, like 12 or 12.5", page.selectFirst("#q-weight-error").text());
        assertEquals("lose", page.selectFirst("input[name=q-goal][checked]").val());
        assertTrue(page.select("#q-goal-error, #q-notes-error, #contact-firstName-error").isEmpty());
        assertEquals("<b>Not</b> \"bold\" & café", page.selectFirst("textarea#q-notes").val());
        assertTrue(answer.asString().contains("&lt;b&gt;Not&lt;/b&gt; &quot;bold&quot; &amp; café"));
        assertEquals(" Ann ", page.selectFirst("input#contact-firstName").val());
        assertEquals("contact-lastName-error", page.selectFirst("input#contact-lastName").attr("aria-describedby"));
        assertEquals("ann@", page.selectFirst("input#contact-email").val());
        assertEquals("Error: Enter an email address in the correct format, like name@example.com",
                page.selectFirst("#contact-email-error").text());
    }

    @Test
    void theBoundsOfAnAnswerInThePatientsWords() {
        survey();
        answer(post(urlPathEqualTo(EMBED + "/responses")), 400, "{\"error\":[" + String.join(",",
                issue("invalid_enum_value", List.of("answers", "goal"), "Invalid enum value. Expected 'lose' | 'maintain', received 'gain'",
                        Map.of("options", List.of("lose", "maintain"), "received", "gain")),
                issue("too_big", List.of("answers", "weight"), "Number must be less than or equal to 1000000",
                        Map.of("maximum", 1000000, "type", "number", "inclusive", true, "exact", false)),
                issue("too_big", List.of("answers", "notes"), "String must contain at most 2000 character(s)",
                        Map.of("maximum", 2000, "type", "string", "inclusive", true, "exact", false)),
                issue("custom", List.of("answers", "extra"), "Unknown question", Map.of())) + "]}");
        Document page = page(form().header("X-Partner-Id", PARTNER).formParam("q-pregnant", "false").formParam("q-goal", "gain")
                .formParam("q-weight", "2000000").formParam("q-notes", "x").post(PAGE + "?key=" + KEY), 400);
        assertEquals(List.of("Select one of the answers shown", "Enter a number no larger than 1,000,000",
                "Enter 2,000 characters or fewer", "Unknown question"), page.select("div.error-summary a").eachText());
        assertEquals("#survey-form", page.select("div.error-summary a").last().attr("href"));
        assertEquals("false", page.selectFirst("input[name=q-pregnant][checked]").val());
        Neighbours.requests().verify(postRequestedFor(urlPathEqualTo(EMBED + "/responses")).withRequestBody(equalToJson(
                "{\"answers\":{\"pregnant\":false,\"goal\":\"gain\",\"weight\":2000000,\"notes\":\"x\"}}")));
    }

    @Test
    void aSubmissionWithoutReturnEndsOnTheThankYouPage() {
        survey();
        submitted();
        Document page = page(form().header("X-Partner-Id", PARTNER).formParam("q-pregnant", "false").formParam("q-goal", "maintain")
                .formParam("q-weight", " 72.50 ").formParam("q-notes", "").formParam("firstName", "").formParam("lastName", " ")
                .formParam("email", "").post(PAGE + "?key=" + KEY), 200);
        assertEquals("Thank you", page.selectFirst("h1").text());
        assertEquals("Your answers have been sent. You can close this page.", page.selectFirst("h1 + p").text());
        assertTrue(page.select("form").isEmpty());
        Neighbours.requests().verify(postRequestedFor(urlPathEqualTo(EMBED + "/responses")).withRequestBody(equalToJson(
                "{\"answers\":{\"pregnant\":false,\"goal\":\"maintain\",\"weight\":72.50}}")));
        Neighbours.gateway().verify(0, getRequestedFor(urlPathEqualTo(ORIGINS)));
    }

    @Test
    void aReturnOnThePartnersAllowListGets303WithTheResponseId() {
        survey();
        submitted();
        origins("https://shop.partner.example", "http://localhost:3000");
        String back = "https://shop.partner.example/intake/done?step=2#top";
        String address = PAGE + "?key=" + KEY + "&return=" + com.telemed.web.page.Pages.encode(back);

        // The form page already lets its form be answered with a redirect there.
        String csp = PageCalls.CSP.replace("form-action 'self'", "form-action 'self' https://shop.partner.example");
        Document page = page(browser().header("X-Partner-Id", PARTNER).get(address), 200, csp);
        assertEquals(address, page.selectFirst("form#survey-form").attr("action"));

        Response answer = form().header("X-Partner-Id", PARTNER).formParam("q-pregnant", "true").formParam("q-goal", "lose")
                .formParam("q-weight", "80").post(address);
        assertEquals(303, answer.statusCode());
        assertEquals("https://shop.partner.example/intake/done?step=2&responseId=" + RESPONSE_ID + "#top", answer.header("Location"));
        PageCalls.assertHeaders(answer, PageCalls.CSP);

        // Without a query of its own: ?responseId=; an origin's port and case as the list has them.
        String local = "HTTP://LOCALHOST:3000/thanks";
        Response fromLocal = form().header("X-Partner-Id", PARTNER).formParam("q-pregnant", "true").formParam("q-goal", "lose")
                .formParam("q-weight", "80").post(PAGE + "?key=" + KEY + "&return=" + com.telemed.web.page.Pages.encode(local));
        assertEquals(303, fromLocal.statusCode());
        assertEquals(local + "?responseId=" + RESPONSE_ID, fromLocal.header("Location"));
    }

    @Test
    void aReturnOffTheAllowListIsIgnoredForTheThankYouPage() {
        survey();
        submitted();
        origins("https://shop.partner.example");
        for (String back : List.of("https://evil.example/steal", "http://shop.partner.example/done", "https://shop.partner.example:8443/x",
                "https://shop.partner.example.evil.example/", "https://user@shop.partner.example/", "javascript:alert(1)",
                "//shop.partner.example/done", "/surveys/x", "not a url")) {
            String address = PAGE + "?key=" + KEY + "&return=" + com.telemed.web.page.Pages.encode(back);
            Document form = page(browser().header("X-Partner-Id", PARTNER).get(address), 200);
            assertEquals(address, form.selectFirst("form").attr("action"), back);
            Document thanks = page(form().header("X-Partner-Id", PARTNER).formParam("q-pregnant", "true").formParam("q-goal", "lose")
                    .formParam("q-weight", "80").post(address), 200);
            assertEquals("Thank you", thanks.selectFirst("h1").text(), back);
        }
        // The gateway unable to say: the thank-you page too, never an error for answers that were kept.
        Neighbours.gateway().stubFor(get(urlPathEqualTo(ORIGINS)).willReturn(aResponse().withStatus(503)));
        Document thanks = page(form().header("X-Partner-Id", PARTNER).formParam("q-pregnant", "true").formParam("q-goal", "lose")
                .formParam("q-weight", "80").post(PAGE + "?key=" + KEY + "&return=https%3A%2F%2Fshop.partner.example%2F"), 200);
        assertEquals("Thank you", thanks.selectFirst("h1").text());
    }

    @Test
    void withoutTheGatewaysPartnerOrWithAKeyRequestsRefusesTheSurveyIs401() {
        survey();
        Document noPartner = page(browser().get(PAGE + "?key=pk_wrong"), 401);
        assertEquals("This survey link is not valid", noPartner.selectFirst("h1").text());
        assertEquals("The link may be incomplete, it may have expired, or it may have been used already. Ask the service that sent it"
                + " for a new one.", noPartner.selectFirst("h1 + p").text());
        page(form().formParam("q-pregnant", "true").post(PAGE + "?key=pk_wrong"), 401);
        Neighbours.requests().verify(0, getRequestedFor(urlPathEqualTo(EMBED)));
        Neighbours.requests().verify(0, postRequestedFor(urlPathEqualTo(EMBED + "/responses")));

        answer(get(urlPathEqualTo(EMBED)), 401, "{\"error\":\"Invalid publishable key\"}");
        page(browser().header("X-Partner-Id", PARTNER).get(PAGE + "?key=" + KEY), 401);

        answer(get(urlPathEqualTo(EMBED)), 404, "{\"error\":\"Survey not found\"}");
        Document unknown = page(browser().header("X-Partner-Id", PARTNER).get(PAGE + "?key=" + KEY), 404);
        assertEquals("Survey not found", unknown.selectFirst("h1").text());
    }

    @Test
    void aReturningMembersSurveyByToken() {
        Neighbours.requests().stubFor(get(urlPathEqualTo("/v2/embed/by-token/survey")).willReturn(okJson(
                definition("Refill check", "Are you pregnant?"))));
        answer(post(urlPathEqualTo("/v2/embed/by-token/responses")), 201, "{\"responseId\":\"" + RESPONSE_ID + "\",\"qualified\":true}");
        Document page = page(browser().header("X-Partner-Id", PARTNER).get("/surveys/t/" + TOKEN), 200);
        assertEquals("Refill check", page.selectFirst("h1").text());
        assertEquals("/surveys/t/" + TOKEN, page.selectFirst("form").attr("action"));
        assertNull(page.selectFirst("fieldset.contact"), "a returning member is known: no contact section");
        Neighbours.requests().verify(getRequestedFor(urlPathEqualTo("/v2/embed/by-token/survey")).withQueryParam("token", equalTo(TOKEN))
                .withHeader("X-Partner-Id", equalTo(PARTNER)));

        Document thanks = page(form().header("X-Partner-Id", PARTNER).formParam("q-pregnant", "true").formParam("q-goal", "lose")
                .formParam("q-weight", "80").formParam("firstName", "Ignored").post("/surveys/t/" + TOKEN), 200);
        assertEquals("Thank you", thanks.selectFirst("h1").text());
        Neighbours.requests().verify(postRequestedFor(urlPathEqualTo("/v2/embed/by-token/responses")).withQueryParam("token", equalTo(TOKEN))
                .withRequestBody(equalToJson("{\"answers\":{\"pregnant\":true,\"goal\":\"lose\",\"weight\":80}}")));

        // The hosted link has only the token (the gateway adds a partner for a key alone): the token's partner
        // comes from requests-service, and the page reads and submits with it.
        Neighbours.requests().resetRequests();
        Neighbours.requests().stubFor(get(urlPathEqualTo("/internal/survey-tokens")).withQueryParam("token", equalTo(TOKEN))
                .willReturn(okJson("{\"partnerId\":\"" + PARTNER + "\"}")));
        Document byTokenAlone = page(browser().get("/surveys/t/" + TOKEN), 200);
        assertEquals("Refill check", byTokenAlone.selectFirst("h1").text());
        Neighbours.requests().verify(getRequestedFor(urlPathEqualTo("/v2/embed/by-token/survey")).withQueryParam("token", equalTo(TOKEN))
                .withHeader("X-Partner-Id", equalTo(PARTNER)));
        page(form().formParam("q-pregnant", "true").formParam("q-goal", "lose").formParam("q-weight", "80")
                .post("/surveys/t/" + TOKEN), 200);
        Neighbours.requests().verify(postRequestedFor(urlPathEqualTo("/v2/embed/by-token/responses"))
                .withQueryParam("token", equalTo(TOKEN)).withHeader("X-Partner-Id", equalTo(PARTNER)));

        // A token no longer usable (used, expired, unknown): requests-service's 401, the invalid-link page, nothing read.
        Neighbours.requests().resetRequests();
        answer(get(urlPathEqualTo("/internal/survey-tokens")), 401, "{\"error\":\"Invalid survey token\"}");
        Document refused = page(browser().get("/surveys/t/" + TOKEN + "?return=https%3A%2F%2Fshop.partner.example%2F"), 401);
        assertEquals("This survey link is not valid", refused.selectFirst("h1").text());
        Neighbours.requests().verify(0, getRequestedFor(urlPathEqualTo("/v2/embed/by-token/survey")));
        page(form().formParam("q-pregnant", "true").post("/surveys/t/" + TOKEN), 401);
        Neighbours.requests().verify(0, postRequestedFor(urlPathEqualTo("/v2/embed/by-token/responses")));

        // With the partner and a token requests-service refuses: 401 too.
        answer(post(urlPathEqualTo("/v2/embed/by-token/responses")), 401, "{\"error\":\"Invalid survey token\"}");
        page(form().header("X-Partner-Id", PARTNER).formParam("q-pregnant", "true").post("/surveys/t/" + TOKEN), 401);
    }

    @Test
    void everyValueOfTheDefinitionIsEscaped() {
        Neighbours.requests().stubFor(get(urlPathEqualTo(EMBED)).willReturn(okJson(
                definition("<script>alert(1)</script> intake", "Are you <i>pregnant</i>? \" onfocus=\"x"))));
        Response answer = browser().header("X-Partner-Id", PARTNER).get(PAGE + "?key=" + KEY);
        Document page = page(answer, 200);
        assertEquals("<script>alert(1)</script> intake", page.selectFirst("h1").text());
        assertEquals("Are you <i>pregnant</i>? \" onfocus=\"x (required)", page.selectFirst("fieldset legend").text());
        assertTrue(page.select("main script, main i, [onfocus]").isEmpty());
        assertTrue(answer.asString().contains("&lt;script&gt;alert(1)&lt;/script&gt; intake"));
    }

    @Test
    void requestsServiceDownIsThe503Page() {
        Neighbours.requests().stubFor(get(urlPathEqualTo(EMBED)).willReturn(aResponse().withStatus(503)));
        Document down = page(browser().header("X-Partner-Id", PARTNER).get(PAGE + "?key=" + KEY), 503);
        assertEquals("Sorry, the service is unavailable", down.selectFirst("h1").text());
    }
}
