package com.telemed.web.console.operations;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.deleteRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
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

import com.github.tomakehurst.wiremock.http.Fault;
import com.telemed.web.Neighbours;
import com.telemed.web.console.ConsoleCalls;
import com.telemed.web.console.admin.LogLines;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pharmacy keys page: issuing a key (shown once, in a {@code 200} answer, never in an address or a log
 * line), revoking one, the gateway's refusals next to their fields, and who may use it.
 */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class PharmacyKeysPageTest {

    static final String PHARMACY = "acme-pharmacy.1";
    static final String CREDENTIAL = "3e1f2a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b";
    static final String KEY = "phk_0123456789abcdef0123456789abcdef";
    static final String ISSUE = "/ops/v1/pharmacies/" + PHARMACY + "/credentials";

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    @Test
    void thePageHasTheIssueAndRevokeFormsAndTheAdministratorsNav() {
        Document page = page(as(ConsoleCalls.admin()).get("/console/pharmacy-keys"), 200);
        assertEquals("Pharmacy keys", page.selectFirst("h1").text());
        Element issue = page.selectFirst("form[method=post][action=/console/pharmacy-keys]");
        assertEquals(List.of("csrf", "pharmacyId"), issue.select("input").stream().map(field -> field.attr("name")).toList());
        assertEquals("Pharmacy id", page.selectFirst("label[for=pharmacyId]").text());
        assertEquals("Issue key", issue.selectFirst("button").text());
        Element revoke = page.selectFirst("form[method=post][action=/console/pharmacy-keys/revoke]");
        assertEquals(List.of("csrf", "pharmacyId", "credentialId"), revoke.select("input").stream().map(field -> field.attr("name")).toList());
        assertEquals("Pharmacy id", page.selectFirst("label[for=revoke-pharmacyId]").text());
        assertEquals("Credential id", page.selectFirst("label[for=credentialId]").text());
        assertEquals("Revoke key", revoke.selectFirst("button").text());
        assertNull(page.selectFirst("output#pharmacy-key"));
        assertNull(page.selectFirst("#notice"));
        assertEquals(ConsoleCalls.ADMIN_NAV,
                page.select("header nav a").stream().map(Element::text).toList());
        assertEquals("/console/pharmacy-keys", page.select("header nav a").get(ConsoleCalls.ADMIN_NAV.indexOf("Pharmacy keys")).attr("href"));
        assertEquals("/console/transmissions", page.select("header nav a").get(ConsoleCalls.ADMIN_NAV.indexOf("Failed transmissions")).attr("href"));
        // Nothing but the nav's unread count (console.session.UnreadThreads).
        Neighbours.gateway().verify(0, anyRequestedFor(urlMatching("(?!/ops/v1/conversations\\?).*")));
    }

    @Test
    void issuingAKeyShowsItOnceInThePageAndNowhereElse() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo(ISSUE)).willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                .withBody("{\"credentialId\":\"" + CREDENTIAL + "\",\"key\":\"" + KEY + "\"}")));
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        AtomicReference<Response> answer = new AtomicReference<>();
        List<String> lines = LogLines.during(1, () -> answer.set(formAs(admin).formParam("csrf", admin.csrf()).formParam("pharmacyId", " " + PHARMACY + " ")
                .post("/console/pharmacy-keys")));
        Document page = page(answer.get(), 200);
        assertEquals("Pharmacy key issued", page.selectFirst("p#notice[role=status]").text());
        assertEquals(KEY, page.selectFirst("output#pharmacy-key").text());
        assertEquals("Shown once: copy it now.", page.selectFirst("#shown-once").text());
        assertEquals(PHARMACY, page.selectFirst("#issued-pharmacy").text());
        assertEquals(CREDENTIAL, page.selectFirst("#issued-credential").text());
        assertEquals("", page.selectFirst("#pharmacyId").val());
        assertEquals("no-store", answer.get().header("Cache-Control"));
        assertNull(answer.get().header("Location"));
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo(ISSUE)).withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)));
        assertEquals(1, Neighbours.gateway().findAll(postRequestedFor(urlPathEqualTo(ISSUE))).size());
        assertEquals("", Neighbours.gateway().findAll(postRequestedFor(urlPathEqualTo(ISSUE))).get(0).getBodyAsString());
        assertTrue(lines.stream().noneMatch(line -> line.contains(KEY) || line.contains("phk_")), () -> "a key in the log: " + lines);
        page.select("a[href], form[action]").forEach(element -> assertFalse((element.attr("href") + element.attr("action")).contains("phk_")));
    }

    @Test
    void anUnknownPharmacyOrAnEmptyIdIsShownNextToTheField() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/pharmacies/nope/credentials")).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Pharmacy not found\"}")));
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        Document page = page(formAs(admin).formParam("csrf", admin.csrf()).formParam("pharmacyId", "nope").post("/console/pharmacy-keys"), 404);
        assertEquals("Pharmacy not found", page.selectFirst("p.field-error#error-pharmacyId").text());
        assertEquals("true", page.selectFirst("#pharmacyId").attr("aria-invalid"));
        assertEquals("error-pharmacyId", page.selectFirst("#pharmacyId").attr("aria-describedby"));
        assertEquals("nope", page.selectFirst("#pharmacyId").val());
        assertTrue(page.title().startsWith("Error: "));
        assertNull(page.selectFirst("output#pharmacy-key"));
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo("/ops/v1/pharmacies/nope/credentials")));

        Neighbours.reset();
        Document empty = page(formAs(admin).formParam("csrf", admin.csrf()).formParam("pharmacyId", "  ").post("/console/pharmacy-keys"), 400);
        assertEquals("Enter the pharmacy id", empty.selectFirst("#error-pharmacyId").text());
        Neighbours.gateway().verify(0, anyRequestedFor(urlMatching("(?!/ops/v1/conversations\\?).*")));
    }

    @Test
    void revokingAKeyLeadsBackWithTheNotice() {
        Neighbours.gateway().stubFor(delete(urlPathEqualTo(ISSUE + "/" + CREDENTIAL)).willReturn(aResponse().withStatus(204)));
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        assertSeeOther(formAs(admin).formParam("csrf", admin.csrf()).formParam("pharmacyId", PHARMACY).formParam("credentialId", " " + CREDENTIAL)
                .post("/console/pharmacy-keys/revoke"), "/console/pharmacy-keys?done=revoked");
        Neighbours.gateway().verify(1, deleteRequestedFor(urlPathEqualTo(ISSUE + "/" + CREDENTIAL))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)));
        assertEquals("Pharmacy key revoked", page(as(admin).get("/console/pharmacy-keys?done=revoked"), 200).selectFirst("p#notice[role=status]").text());
    }

    @Test
    void anUnknownCredentialOrAnEmptyFieldIsShownNextToItsFieldWithWhatWasTyped() {
        Neighbours.gateway().stubFor(delete(urlPathEqualTo(ISSUE + "/nope")).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Credential not found\"}")));
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        Document page = page(formAs(admin).formParam("csrf", admin.csrf()).formParam("pharmacyId", PHARMACY).formParam("credentialId", "nope")
                .post("/console/pharmacy-keys/revoke"), 404);
        assertEquals("Credential not found", page.selectFirst("p.field-error#error-credentialId").text());
        assertEquals("true", page.selectFirst("#credentialId").attr("aria-invalid"));
        assertEquals("error-credentialId", page.selectFirst("#credentialId").attr("aria-describedby"));
        assertEquals(PHARMACY, page.selectFirst("#revoke-pharmacyId").val());
        assertEquals("nope", page.selectFirst("#credentialId").val());

        Neighbours.reset();
        Document empty = page(formAs(admin).formParam("csrf", admin.csrf()).formParam("pharmacyId", "").formParam("credentialId", "")
                .post("/console/pharmacy-keys/revoke"), 400);
        assertEquals("Enter the pharmacy id", empty.selectFirst("#error-revoke-pharmacyId").text());
        assertEquals("Enter the credential id", empty.selectFirst("#error-credentialId").text());
        assertEquals("error-revoke-pharmacyId", empty.selectFirst("#revoke-pharmacyId").attr("aria-describedby"));
        Neighbours.gateway().verify(0, anyRequestedFor(urlMatching("(?!/ops/v1/conversations\\?).*")));
    }

    @Test
    void aFormWithoutTheSessionsTokenIsRefusedAndNothingIsAsked() {
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        for (Response response : List.of(formAs(admin).formParam("pharmacyId", PHARMACY).post("/console/pharmacy-keys"),
                formAs(admin).formParam("csrf", "nope").formParam("pharmacyId", PHARMACY).post("/console/pharmacy-keys"),
                formAs(admin).formParam("pharmacyId", PHARMACY).formParam("credentialId", CREDENTIAL).post("/console/pharmacy-keys/revoke"),
                formAs(admin).formParam("csrf", "nope").formParam("pharmacyId", PHARMACY).formParam("credentialId", CREDENTIAL)
                        .post("/console/pharmacy-keys/revoke"))) {
            assertEquals("This form has expired. Reload the page and try again.", page(response, 403).selectFirst("h1 + p").text());
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aPrescriberOrSupportGetsTheForbiddenPageAndNothingIsAsked() {
        ConsoleCalls.TestSession support = ConsoleCalls.support();
        for (ConsoleCalls.TestSession session : List.of(ConsoleCalls.prescriber(), support)) {
            for (Response response : List.of(as(session).get("/console/pharmacy-keys"),
                    formAs(session).formParam("csrf", session.csrf()).formParam("pharmacyId", PHARMACY).post("/console/pharmacy-keys"),
                    formAs(session).formParam("csrf", session.csrf()).formParam("pharmacyId", PHARMACY).formParam("credentialId", CREDENTIAL)
                            .post("/console/pharmacy-keys/revoke"))) {
                Document page = page(response, 403);
                assertEquals("Forbidden", page.selectFirst("h1").text());
                assertEquals("You do not have access to this page.", page.selectFirst("h1 + p").text());
                assertEquals(session == support ? List.of("Queue", "Conversations", "Webhook deliveries", "Failed transmissions")
                                : List.of("Queue", "Appointments", "Availability", "Conversations"),
                        page.select("header nav a").stream().map(Element::text).toList());
            }
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void theGatewaysRefusalsAndFailuresAreItsPages() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo(ISSUE)).willReturn(aResponse().withStatus(401)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Invalid token\"}")));
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        Response signedOut = formAs(admin).redirects().follow(false).formParam("csrf", admin.csrf()).formParam("pharmacyId", PHARMACY)
                .post("/console/pharmacy-keys");
        assertSeeOther(signedOut, "/console/sign-in");
        assertTrue(signedOut.header("Set-Cookie").contains("Max-Age=0"));

        Neighbours.gateway().stubFor(post(urlPathEqualTo(ISSUE)).willReturn(aResponse().withStatus(403)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Forbidden\"}")));
        assertEquals("You do not have access to this page.", page(formAs(admin).formParam("csrf", admin.csrf()).formParam("pharmacyId", PHARMACY)
                .post("/console/pharmacy-keys"), 403).selectFirst("h1 + p").text());

        Neighbours.gateway().stubFor(delete(urlPathEqualTo(ISSUE + "/" + CREDENTIAL)).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        assertEquals("Sorry, the service is unavailable", page(formAs(admin).formParam("csrf", admin.csrf()).formParam("pharmacyId", PHARMACY)
                .formParam("credentialId", CREDENTIAL).post("/console/pharmacy-keys/revoke"), 503).selectFirst("h1").text());

        Neighbours.gateway().stubFor(post(urlPathEqualTo(ISSUE)).willReturn(aResponse().withStatus(500)));
        assertEquals("Sorry, the service is unavailable", page(formAs(admin).formParam("csrf", admin.csrf()).formParam("pharmacyId", PHARMACY)
                .post("/console/pharmacy-keys"), 503).selectFirst("h1").text());
    }
}
