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

/**
 * The catalogue pages: every drug, a drug's form (what the form does not edit kept: the default ad copy, each
 * kept SKU's package size and concentration), the gateway's issues next to their fields, a new drug, and who
 * may use them.
 */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class DrugsPageTest {

    static final String DRUGS = """
            {"drugs":[
             {"id":"semaglutide","name":"Semaglutide <inj>","description":"Weekly","defaultAdCopy":"Ask us","dosages":["0.25 mg","0.5 mg"],
              "skus":[{"id":"sku_a","label":"0.25 mg","packageSize":2,"concentration":{"value":2.5,"activeUnit":"mg","baseUnit":"ml"},"active":true},
                      {"id":"sku_b","label":"0.5 mg","active":false}],
              "classification":"non-controlled","pharmacy":{"id":"ph-1","method":"integration_a"}},
             {"id":"testosterone","name":"Testosterone","dosages":[],"skus":[],"classification":"controlled","pharmacy":{"id":"ph-2","method":"email"}}
            ]}""";

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    static void drugsAre() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/drugs")).willReturn(okJson(DRUGS)));
    }

    static void putAnswers(String drugId, int status, String body) {
        Neighbours.gateway().stubFor(put(urlPathEqualTo("/ops/v1/drugs/" + drugId)).willReturn(aResponse().withStatus(status)
                .withHeader("Content-Type", "application/json").withBody(body)));
    }

    @Test
    void theDrugsPageListsTheCatalogueInAFocusableTable() {
        drugsAre();
        Document page = page(as(ConsoleCalls.admin()).get("/console/drugs"), 200);
        assertEquals("Drugs", page.selectFirst("h1").text());
        Element wrap = page.selectFirst("div.table-wrap");
        assertEquals("0", wrap.attr("tabindex"));
        assertEquals("region", wrap.attr("role"));
        assertEquals("Drugs", wrap.attr("aria-label"));
        List<Element> rows = page.select("table#drugs tbody tr");
        assertEquals(List.of("semaglutide", "testosterone"), rows.stream().map(row -> row.attr("data-drug-id")).toList());
        assertEquals(List.of("semaglutide", "Semaglutide <inj>", "non-controlled", "0.25 mg (sku_a, active); 0.5 mg (sku_b, inactive)",
                "ph-1 / integration_a", "Edit Semaglutide <inj>"), rows.get(0).select("td").stream().map(Element::text).toList());
        assertEquals(List.of("testosterone", "Testosterone", "controlled", "-", "ph-2 / email", "Edit Testosterone"),
                rows.get(1).select("td").stream().map(Element::text).toList());
        assertEquals("/console/drugs/semaglutide", rows.get(0).selectFirst("a").attr("href"));
        Element open = page.selectFirst("form[method=get][action=/console/drugs]");
        assertEquals("drugId", open.selectFirst("#drugId").attr("name"));
        assertEquals("Drug id", page.selectFirst("label[for=drugId]").text());
        assertEquals(ConsoleCalls.ADMIN_NAV,
                page.select("header nav a").stream().map(Element::text).toList());
        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo("/ops/v1/drugs")).withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)));
        Neighbours.gateway().verify(0, anyRequestedFor(urlMatching("(?!/ops/v1/conversations\\?|/ops/v1/drugs$).*")));
    }

    @Test
    void anEmptyCatalogueSaysSo() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/drugs")).willReturn(okJson("{\"drugs\":[]}")));
        Document page = page(as(ConsoleCalls.admin()).get("/console/drugs"), 200);
        assertEquals("No drugs in the catalogue.", page.selectFirst("#drugs-empty").text());
        assertNull(page.selectFirst("table"));
    }

    @Test
    void theOpenFormLeadsToTheDrugsFormAndAsksNothing() {
        assertSeeOther(as(ConsoleCalls.admin()).redirects().follow(false).get("/console/drugs?drugId=%20new-drug%20"), "/console/drugs/new-drug");
        assertSeeOther(as(ConsoleCalls.admin()).redirects().follow(false).get("/console/drugs?drugId=a%2Fb"), "/console/drugs/a%2Fb");
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aDrugsFormIsFilledFromTheCatalogueWithThreeEmptySkuRows() {
        drugsAre();
        Document page = page(as(ConsoleCalls.admin()).get("/console/drugs/semaglutide"), 200);
        assertEquals("Drug", page.selectFirst("h1").text());
        Element form = page.selectFirst("form[method=post][action=/console/drugs/semaglutide]");
        assertEquals("Semaglutide <inj>", form.selectFirst("input#name").val());
        assertEquals("Weekly", form.selectFirst("textarea#description").text());
        assertEquals("non-controlled", form.selectFirst("select#classification option[selected]").val());
        assertEquals(List.of("non-controlled", "controlled"), form.select("select#classification option").stream().map(Element::val).toList());
        assertEquals("ph-1", form.selectFirst("input#pharmacyId").val());
        assertEquals("integration_a", form.selectFirst("select#pharmacyMethod option[selected]").val());
        assertEquals(List.of("integration_a", "integration_b", "email", "none"),
                form.select("select#pharmacyMethod option").stream().map(Element::val).toList());
        assertEquals("sku_a", form.selectFirst("input[type=hidden][name=sku-id-0]").val());
        assertEquals("sku_b", form.selectFirst("input[type=hidden][name=sku-id-1]").val());
        assertEquals("0.25 mg", form.selectFirst("input#sku-label-0").val());
        assertEquals("0.5 mg", form.selectFirst("input#sku-label-1").val());
        assertTrue(form.selectFirst("input#sku-active-0").hasAttr("checked"));
        assertFalse(form.selectFirst("input#sku-active-1").hasAttr("checked"));
        for (int n = 2; n <= 4; n++) {
            assertEquals("", form.selectFirst("input#sku-label-" + n).val());
            assertNull(form.selectFirst("input[name=sku-id-" + n + "]"));
        }
        assertNull(form.selectFirst("#sku-label-5"));
        assertEquals("Name", page.selectFirst("label[for=name]").text());
        assertEquals("Classification", page.selectFirst("label[for=classification]").text());
        assertEquals("Pharmacy method", page.selectFirst("label[for=pharmacyMethod]").text());
        assertEquals("Save drug", form.selectFirst("button").text());
        assertNull(page.selectFirst("#notice"));
    }

    @Test
    void savingSendsTheFormAndKeepsWhatItDoesNotEdit() {
        drugsAre();
        putAnswers("semaglutide", 200, "{\"drug\":{\"id\":\"semaglutide\"}}");
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        Response answer = formAs(admin).redirects().follow(false).formParam("csrf", admin.csrf())
                .formParam("name", "Semaglutide").formParam("description", "").formParam("classification", "controlled")
                .formParam("pharmacyId", "ph-9").formParam("pharmacyMethod", "none")
                .formParam("sku-id-0", "sku_a").formParam("sku-label-0", "0.25 mg pen")
                .formParam("sku-id-1", "sku_b").formParam("sku-label-1", "0.5 mg").formParam("sku-active-1", "on")
                .formParam("sku-label-2", "").formParam("sku-active-2", "on")
                .formParam("sku-label-3", "1 mg").formParam("sku-active-3", "on")
                .formParam("sku-label-4", "")
                .post("/console/drugs/semaglutide");
        assertSeeOther(answer, "/console/drugs/semaglutide?done=saved");
        Neighbours.gateway().verify(1, putRequestedFor(urlPathEqualTo("/ops/v1/drugs/semaglutide"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN))
                .withRequestBody(equalToJson("""
                        {"name":"Semaglutide","description":null,"defaultAdCopy":"Ask us","classification":"controlled",
                         "skus":[{"id":"sku_a","label":"0.25 mg pen","packageSize":2,"concentration":{"value":2.5,"activeUnit":"mg","baseUnit":"ml"},"active":false},
                                 {"id":"sku_b","label":"0.5 mg","active":true},
                                 {"label":"1 mg","active":true}],
                         "pharmacy":{"id":"ph-9","method":"none"}}""")));

        Document saved = page(as(admin).get("/console/drugs/semaglutide?done=saved"), 200);
        assertEquals("Drug saved", saved.selectFirst("p#notice[role=status]").text());
    }

    @Test
    void theGatewaysIssuesAreShownNextToTheirFieldsWithWhatWasTyped() {
        drugsAre();
        putAnswers("semaglutide", 400, """
                {"error":[{"code":"too_small","path":["name"],"message":"String must contain at least 1 character(s)"},
                          {"code":"custom","path":["skus",2,"label"],"message":"Duplicate SKU label"},
                          {"code":"invalid_enum_value","path":["pharmacy","method"],"message":"Invalid enum value"}]}""");
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        Document page = page(formAs(admin).formParam("csrf", admin.csrf())
                .formParam("name", "").formParam("description", "Weekly").formParam("classification", "controlled")
                .formParam("pharmacyId", "ph-1").formParam("pharmacyMethod", "fax")
                .formParam("sku-id-0", "sku_a").formParam("sku-label-0", "0.25 mg").formParam("sku-active-0", "on")
                .formParam("sku-id-1", "sku_b").formParam("sku-label-1", "0.5 mg")
                .formParam("sku-label-2", "").formParam("sku-active-2", "on")
                .formParam("sku-label-3", "0.25 mg").formParam("sku-active-3", "on")
                .formParam("sku-label-4", "")
                .post("/console/drugs/semaglutide"), 400);
        assertTrue(page.title().startsWith("Error: "));
        assertEquals("String must contain at least 1 character(s)", page.selectFirst("p.field-error#error-name").text());
        assertEquals("true", page.selectFirst("#name").attr("aria-invalid"));
        assertEquals("error-name", page.selectFirst("#name").attr("aria-describedby"));
        // SKU 2 of the body is row 3 (row 2 was empty, so not sent).
        assertEquals("Duplicate SKU label", page.selectFirst("#error-sku-label-3").text());
        assertEquals("error-sku-label-3", page.selectFirst("#sku-label-3").attr("aria-describedby"));
        assertEquals("Invalid enum value", page.selectFirst("#error-pharmacyMethod").text());
        assertEquals("true", page.selectFirst("#pharmacyMethod").attr("aria-invalid"));
        assertEquals("Weekly", page.selectFirst("#description").text());
        assertEquals("controlled", page.selectFirst("#classification option[selected]").val());
        assertEquals("", page.selectFirst("#pharmacyMethod option[selected]").val());
        assertEquals("sku_b", page.selectFirst("input[name=sku-id-1]").val());
        assertFalse(page.selectFirst("#sku-active-1").hasAttr("checked"));
        assertEquals("0.25 mg", page.selectFirst("#sku-label-3").val());
        assertNull(page.selectFirst("#form-error"));
        Neighbours.gateway().verify(1, putRequestedFor(urlPathEqualTo("/ops/v1/drugs/semaglutide")));
    }

    @Test
    void anIdTheCatalogueDoesNotHaveIsTheFormThatCreatesIt() {
        drugsAre();
        Document page = page(as(ConsoleCalls.admin()).get("/console/drugs/new-drug"), 200);
        assertEquals("New drug", page.selectFirst("h1").text());
        assertEquals("", page.selectFirst("#name").val());
        assertEquals("", page.selectFirst("#classification option[selected]").val());
        assertEquals(List.of("sku-label-0", "sku-label-1", "sku-label-2"), page.select("input[name^=sku-label-]").stream().map(Element::id).toList());
        assertNull(page.selectFirst("input[name^=sku-id-]"));

        putAnswers("new-drug", 200, "{\"drug\":{\"id\":\"new-drug\"}}");
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        assertSeeOther(formAs(admin).redirects().follow(false).formParam("csrf", admin.csrf()).formParam("name", "New")
                .formParam("description", "").formParam("classification", "non-controlled").formParam("pharmacyId", "ph-1")
                .formParam("pharmacyMethod", "email").formParam("sku-label-0", "10 mg").formParam("sku-active-0", "on")
                .formParam("sku-label-1", "").formParam("sku-label-2", "").post("/console/drugs/new-drug"), "/console/drugs/new-drug?done=saved");
        Neighbours.gateway().verify(1, putRequestedFor(urlPathEqualTo("/ops/v1/drugs/new-drug")).withRequestBody(equalToJson("""
                {"name":"New","description":null,"classification":"non-controlled","skus":[{"label":"10 mg","active":true}],
                 "pharmacy":{"id":"ph-1","method":"email"}}""")));
    }

    @Test
    void aRefusalAboutNoFieldIsTheFormsOwnMessage() {
        drugsAre();
        putAnswers("Bad%20Id", 400, "{\"error\":[{\"code\":\"invalid_string\",\"path\":[\"drugId\"],\"message\":\"Invalid drug id\"}]}");
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        Document page = page(formAs(admin).formParam("csrf", admin.csrf()).formParam("name", "X").formParam("classification", "controlled")
                .formParam("pharmacyId", "p").formParam("pharmacyMethod", "none").post("/console/drugs/Bad%20Id"), 400);
        assertEquals("Invalid drug id", page.selectFirst("p#form-error[role=alert]").text());
        assertEquals("X", page.selectFirst("#name").val());
    }

    @Test
    void aFormWithoutTheSessionsTokenIsRefusedAndNothingIsAsked() {
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        for (Response response : List.of(formAs(admin).formParam("name", "X").post("/console/drugs/semaglutide"),
                formAs(admin).formParam("csrf", "nope").formParam("name", "X").post("/console/drugs/semaglutide"))) {
            Document page = page(response, 403);
            assertEquals("This form has expired. Reload the page and try again.", page.selectFirst("h1 + p").text());
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aPrescriberOrSupportGetsTheForbiddenPageAndNothingIsAsked() {
        for (ConsoleCalls.TestSession session : List.of(ConsoleCalls.prescriber(), ConsoleCalls.support())) {
            for (Response response : List.of(as(session).get("/console/drugs"), as(session).get("/console/drugs?drugId=x"),
                    as(session).get("/console/drugs/semaglutide"),
                    formAs(session).formParam("csrf", session.csrf()).formParam("name", "X").post("/console/drugs/semaglutide"))) {
                Document page = page(response, 403);
                assertEquals("Forbidden", page.selectFirst("h1").text());
                assertEquals("You do not have access to this page.", page.selectFirst("h1 + p").text());
                assertFalse(page.select("header nav a").stream().map(Element::text).toList().contains("Drugs"));
            }
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void theGatewaysRefusalsAndFailuresAreItsPages() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/drugs")).willReturn(aResponse().withStatus(401)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Invalid token\"}")));
        Response signedOut = as(ConsoleCalls.admin()).redirects().follow(false).get("/console/drugs");
        assertSeeOther(signedOut, "/console/sign-in");

        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/drugs")).willReturn(aResponse().withStatus(403)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Forbidden\"}")));
        assertEquals("You do not have access to this page.", page(as(ConsoleCalls.admin()).get("/console/drugs"), 403).selectFirst("h1 + p").text());

        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/drugs")).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        assertEquals("Sorry, the service is unavailable", page(as(ConsoleCalls.admin()).get("/console/drugs/semaglutide"), 503)
                .selectFirst("h1").text());

        drugsAre();
        putAnswers("semaglutide", 500, "{}");
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        assertEquals("Sorry, the service is unavailable", page(formAs(admin).formParam("csrf", admin.csrf()).formParam("name", "X")
                .post("/console/drugs/semaglutide"), 503).selectFirst("h1").text());
    }
}
