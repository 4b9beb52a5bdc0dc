package com.telemed.web.console.request;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.telemed.web.console.ConsoleCalls.as;
import static com.telemed.web.console.ConsoleCalls.assertSeeOther;
import static com.telemed.web.console.ConsoleCalls.formAs;
import static com.telemed.web.console.ConsoleCalls.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.web.Neighbours;
import com.telemed.web.console.ConsoleCalls;
import com.telemed.web.console.ConsoleCalls.TestSession;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A prescriber's note on a request (interfaces.md E3): the form, the body sent, the notice, the refusals, who may add one. */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class RequestNotesTest {

    static final String ID = RequestPageTest.ID;
    static final String PAGE = RequestPageTest.PAGE;
    static final String NOTES = PAGE + "/notes";
    static final String API = "/ops/v1/requests/" + ID + "/notes";

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    @Test
    void aPrescriberHasTheNoteFormAndSupportAndAnAdministratorDoNot() {
        RequestPageTest.request(RequestPageTest.member());
        Document page = page(as(ConsoleCalls.prescriber()).get(PAGE), 200);
        Element form = page.selectFirst("form.note-form[method=post]");
        assertEquals(NOTES, form.attr("action"));
        assertEquals("Note", page.selectFirst("label[for=note-text]").text());
        Element text = form.selectFirst("#note-text");
        assertEquals("textarea", text.tagName());
        assertEquals("text", text.attr("name"));
        assertEquals("", text.val());
        assertEquals("Add note", form.selectFirst("button").text());
        for (TestSession session : List.of(ConsoleCalls.support(), ConsoleCalls.admin())) {
            assertNull(page(as(session).get(PAGE), 200).selectFirst("form.note-form"));
        }
        assertEquals("Note added", page(as(ConsoleCalls.prescriber()).get(PAGE + "?done=noted"), 200).selectFirst("p#notice[role=status]").text());
    }

    @Test
    void aNoteIsSentAsTypedAndLeadsBackWithTheNotice() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo(API)).willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/json")
                .withBody("{\"success\":true}")));
        TestSession prescriber = ConsoleCalls.prescriber();
        assertSeeOther(formAs(prescriber).formParam("csrf", prescriber.csrf()).formParam("text", "Called the patient.\nNo <allergies>.")
                .post(NOTES), PAGE + "?done=noted");
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo(API)).withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN))
                .withRequestBody(equalToJson("{\"text\":\"Called the patient.\\nNo <allergies>.\"}")));
    }

    @Test
    void theGatewaysIssueIsShownNextToTheFieldWithWhatWasTyped() {
        RequestPageTest.request(RequestPageTest.member());
        Neighbours.gateway().stubFor(post(urlPathEqualTo(API)).willReturn(aResponse().withStatus(400).withHeader("Content-Type", "application/json")
                .withBody("{\"error\":[{\"code\":\"too_small\",\"path\":[\"text\"],\"message\":\"String must contain at least 1 character(s)\"}]}")));
        TestSession prescriber = ConsoleCalls.prescriber();
        Document page = page(formAs(prescriber).formParam("csrf", prescriber.csrf()).formParam("text", "").post(NOTES), 400);
        assertEquals("String must contain at least 1 character(s)", page.selectFirst("p.field-error#error-text").text());
        assertEquals("true", page.selectFirst("#note-text").attr("aria-invalid"));
        assertEquals("error-text", page.selectFirst("#note-text").attr("aria-describedby"));
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo(API)).withRequestBody(equalToJson("{\"text\":\"\"}")));

        String typed = "x".repeat(10_001);
        Neighbours.gateway().stubFor(post(urlPathEqualTo(API)).willReturn(aResponse().withStatus(400).withHeader("Content-Type", "application/json")
                .withBody("{\"error\":[{\"code\":\"too_big\",\"path\":[\"text\"],\"message\":\"String must contain at most 10000 character(s)\"}]}")));
        Document kept = page(formAs(prescriber).formParam("csrf", prescriber.csrf()).formParam("text", typed).post(NOTES), 400);
        assertEquals(typed, kept.selectFirst("#note-text").val());
        assertEquals("String must contain at most 10000 character(s)", kept.selectFirst("#error-text").text());

        Neighbours.gateway().stubFor(post(urlPathEqualTo(API)).willReturn(aResponse().withStatus(409).withHeader("Content-Type", "application/json")
                .withBody("{\"error\":\"Request is claimed by another prescriber\"}")));
        Document refused = page(formAs(prescriber).formParam("csrf", prescriber.csrf()).formParam("text", "A note").post(NOTES), 409);
        assertEquals("Request is claimed by another prescriber", refused.selectFirst("p#form-error[role=alert]").text());
        assertEquals("A note", refused.selectFirst("#note-text").val());
    }

    @Test
    void anUnknownRequestIsThe404Page() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo(API)).willReturn(aResponse().withStatus(404).withHeader("Content-Type", "application/json")
                .withBody("{\"error\":\"Request not found\"}")));
        TestSession prescriber = ConsoleCalls.prescriber();
        assertEquals("Request not found", page(formAs(prescriber).formParam("csrf", prescriber.csrf()).formParam("text", "A note").post(NOTES), 404)
                .selectFirst("h1").text());
    }

    @Test
    void aWrongTokenOrARoleThatMayNotIsRefusedAndNothingIsAsked() {
        TestSession prescriber = ConsoleCalls.prescriber();
        for (Response response : List.of(formAs(prescriber).formParam("text", "A note").post(NOTES),
                formAs(prescriber).formParam("csrf", "nope").formParam("text", "A note").post(NOTES))) {
            assertEquals("This form has expired. Reload the page and try again.", page(response, 403).selectFirst("h1 + p").text());
        }
        for (TestSession session : List.of(ConsoleCalls.support(), ConsoleCalls.admin())) {
            assertEquals("You do not have access to this page.", page(formAs(session).formParam("csrf", session.csrf()).formParam("text", "A note")
                    .post(NOTES), 403).selectFirst("h1 + p").text());
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }
}
