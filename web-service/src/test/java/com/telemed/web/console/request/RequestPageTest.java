package com.telemed.web.console.request;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.telemed.web.PageCalls.json;
import static com.telemed.web.console.ConsoleCalls.as;
import static com.telemed.web.console.ConsoleCalls.assertSeeOther;
import static com.telemed.web.console.ConsoleCalls.formAs;
import static com.telemed.web.console.ConsoleCalls.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.telemed.web.Neighbours;
import com.telemed.web.console.ConsoleCalls;
import com.telemed.web.console.ConsoleCalls.TestSession;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A request's page: what it shows, the prescriber's three decisions and their refusals, and who may take them. */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class RequestPageTest {

    static final String ID = "0b1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e01";
    static final String ITEM = "5a1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e01";
    static final String DECIDED = "5a1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e02";
    static final String CALL = "5a1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e03";
    static final String PAGE = "/console/requests/" + ID;
    static final String APPROVE = PAGE + "/items/" + ITEM + "/approve";

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    static void request(Map<String, Object> member) {
        Map<String, Object> history = new LinkedHashMap<>();
        history.put("action", "created");
        history.put("timestamp", "2030-03-01T09:05:00.000Z");
        history.put("by", "api");
        Map<String, Object> denied = new LinkedHashMap<>(Map.of("action", "denied", "timestamp", "2030-03-01T11:00:00Z",
                "by", ConsoleCalls.PRESCRIBER_ID, "reason", "Not suitable"));
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("request", ConsoleCalls.reviewed(ID, "Jo Bloggs", null, "2030-03-01T09:05:00Z",
                List.of(ConsoleCalls.item(ITEM, "Atorvastatin", "pending"), ConsoleCalls.item(DECIDED, "Metformin", "denied"),
                        ConsoleCalls.item(CALL, "Sertraline", "call_requested"))));
        detail.put("member", member);
        detail.put("history", List.of(history, denied));
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/requests/" + ID)).willReturn(okJson(json(detail))));
    }

    static Map<String, Object> member() {
        Map<String, Object> address = new LinkedHashMap<>();
        address.put("street1", "1 Main St");
        address.put("street2", null);
        address.put("city", "Springfield");
        address.put("state", "CA");
        address.put("zipCode", "90001");
        Map<String, Object> member = new LinkedHashMap<>();
        member.put("id", "1b1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e9f");
        member.put("firstName", "Jo");
        member.put("lastName", "Bloggs");
        member.put("dateOfBirth", "1980-02-29");
        member.put("state", "CA");
        member.put("shippingAddress", address);
        return member;
    }

    static void refused(MappingBuilder call, int status, String body) {
        Neighbours.gateway().stubFor(call.willReturn(aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(body)));
    }

    /** The approve form as a prescriber fills it in, {@code changes} on top (a field set to null is left out). */
    static RequestSpecification approveForm(TestSession session, String... changes) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("csrf", session.csrf());
        fields.put("skuId", "");
        fields.put("quantity", "30");
        fields.put("quantityUnits", "tablets");
        fields.put("daysSupply", "30");
        fields.put("directions", "Take one daily");
        fields.put("refills", "2");
        for (int i = 0; i < changes.length; i += 2) {
            fields.put(changes[i], changes[i + 1]);
        }
        fields.values().removeIf(java.util.Objects::isNull);
        return formAs(session).formParams(fields);
    }

    @Test
    void aPrescriberSeesTheRequestAndTheFormsOfEachItemStillToDecide() {
        request(member());
        Document page = page(as(ConsoleCalls.prescriber()).get(PAGE), 200);
        assertEquals("Request", page.selectFirst("h1").text());
        assertEquals("Name Jo Bloggs Date of birth 1980-02-29 State CA Shipping address 1 Main St Springfield, CA 90001",
                page.selectFirst("dl#member").text());
        assertEquals("Q: Any allergies?\nA: No", page.selectFirst("#case-notes").wholeText());
        assertEquals(List.of("Atorvastatin 10 mg Atorvastatin 10 mg x 30 pending", "Metformin 10 mg Metformin 10 mg x 30 denied",
                "Sertraline 10 mg Sertraline 10 mg x 30 call_requested"), page.select("table#items tbody tr").stream().map(Element::text).toList());
        assertEquals(List.of("2030-03-01 09:05 created api", "2030-03-01 11:00 denied: Not suitable " + ConsoleCalls.PRESCRIBER_ID),
                page.select("table#history tbody tr").stream().map(Element::text).toList());
        assertNull(page.selectFirst("#notice"));

        assertNotNull(page.selectFirst("section#item-" + CALL));
        assertNull(page.selectFirst("section#item-" + DECIDED), "decided already");
        Element section = page.selectFirst("section#item-" + ITEM);
        Element approve = section.selectFirst("form[action=" + APPROVE + "]");
        assertEquals("post", approve.attr("method"));
        Map<String, String> labels = new LinkedHashMap<>();
        for (Element field : approve.select("input:not([type=hidden]), textarea")) {
            labels.put(field.attr("name"), page.selectFirst("label[for=" + field.id() + "]").text());
        }
        assertEquals(Map.of("skuId", "SKU", "quantity", "Quantity", "quantityUnits", "Quantity units", "daysSupply", "Days supply",
                "directions", "Directions", "refills", "Refills", "dispenseAsWritten", "Dispense as written"), labels);
        assertEquals("textarea", approve.selectFirst("[name=directions]").tagName());
        assertEquals("checkbox", approve.selectFirst("[name=dispenseAsWritten]").attr("type"));
        assertEquals("Approve", approve.selectFirst("button").text());
        Element deny = section.selectFirst("form[action=" + PAGE + "/items/" + ITEM + "/deny]");
        assertEquals("Reason", page.selectFirst("label[for=" + deny.selectFirst("[name=reason]").id() + "]").text());
        assertEquals("Deny", deny.selectFirst("button").text());
        Element consultation = section.selectFirst("form[action=" + PAGE + "/items/" + ITEM + "/request-consultation]");
        assertEquals("Request a consultation", consultation.selectFirst("button").text());
        Neighbours.gateway().verify(1, com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor(urlPathEqualTo("/ops/v1/requests/" + ID))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)));
    }

    @Test
    void supportAndAnAdministratorReadItWithoutForms() {
        request(null);
        for (TestSession session : List.of(ConsoleCalls.support(), ConsoleCalls.admin())) {
            Document page = page(as(session).get(PAGE), 200);
            assertTrue(page.select("main form").isEmpty(), "no forms");
            assertEquals("Jo Bloggs (CA). The member's record is no longer available.", page.selectFirst("#member").text());
        }
    }

    @Test
    void eachDoneNoticeIsShown() {
        request(member());
        Map<String, String> notices = Map.of("approved", "Approved", "denied", "Denied", "consultation", "Consultation requested");
        notices.forEach((done, text) -> assertEquals(text,
                page(as(ConsoleCalls.prescriber()).get(PAGE + "?done=" + done), 200).selectFirst("p[role=status]#notice").text()));
        assertNull(page(as(ConsoleCalls.prescriber()).get(PAGE + "?done=other"), 200).selectFirst("#notice"));
    }

    @Test
    void anUnknownRequestIsThe404Page() {
        refused(get(urlPathMatching("/ops/v1/requests/.*")), 404, "{\"error\":\"Request not found\"}");
        Document page = page(as(ConsoleCalls.support()).get("/console/requests/nope"), 404);
        assertEquals("Request not found", page.selectFirst("h1").text());
    }

    @Test
    void approvingSendsThePrescriptionAsTypedWithNumbersAndWithoutPrescriberId() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1" + APPROVE.substring("/console".length()))).willReturn(okJson("{\"request\":{}}")));
        TestSession session = ConsoleCalls.prescriber();
        assertSeeOther(approveForm(session, "dispenseAsWritten", "on").post(APPROVE), PAGE + "?done=approved");
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo("/ops/v1/requests/" + ID + "/items/" + ITEM + "/approve"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN))
                .withRequestBody(equalToJson("{\"prescription\":{\"quantity\":30,\"quantityUnits\":\"tablets\",\"daysSupply\":30,"
                        + "\"directions\":\"Take one daily\",\"refills\":2,\"dispenseAsWritten\":true}}")));

        Neighbours.reset();
        Neighbours.gateway().stubFor(post(urlPathMatching("/ops/v1/requests/.*/approve")).willReturn(okJson("{\"request\":{}}")));
        formAs(session).formParam("csrf", session.csrf()).formParam("skuId", "sku_2").formParam("quantity", "30 tablets")
                .formParam("daysSupply", " 14 ").formParam("directions", "Twice daily").formParam("refills", "one").post(APPROVE);
        Neighbours.gateway().verify(1, postRequestedFor(urlPathMatching("/ops/v1/requests/.*/approve"))
                .withRequestBody(equalToJson("{\"prescription\":{\"skuId\":\"sku_2\",\"quantity\":\"30 tablets\",\"daysSupply\":14,"
                        + "\"directions\":\"Twice daily\",\"refills\":\"one\",\"dispenseAsWritten\":false}}")));
    }

    @Test
    void anApprovalTheGatewayDidNotAnswerIsSentOnceAndTheServicePageSaysSo() {
        // A 503 (or a timeout) after the gateway may have signed: never sent again behind the prescriber's back.
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1" + APPROVE.substring("/console".length())))
                .willReturn(aResponse().withStatus(503).withHeader("Content-Type", "application/json").withBody("{\"error\":\"Service Unavailable\"}")));
        TestSession session = ConsoleCalls.prescriber();
        approveForm(session, "dispenseAsWritten", "on").post(APPROVE).then().statusCode(503);
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo("/ops/v1/requests/" + ID + "/items/" + ITEM + "/approve")));
    }

    @Test
    void theGatewaysIssuesAreShownNextToTheirFieldsWithEveryValueKept() {
        request(member());
        refused(post(urlPathMatching("/ops/v1/requests/.*/approve")), 400, "{\"error\":["
                + "{\"code\":\"too_small\",\"path\":[\"prescription\",\"daysSupply\"],\"message\":\"Number must be greater than or equal to 1\"},"
                + "{\"code\":\"invalid_type\",\"path\":[\"prescription\",\"refills\"],\"message\":\"Expected number, received string\"}]}");
        Document page = page(approveForm(ConsoleCalls.prescriber(), "daysSupply", "0", "refills", "two",
                "dispenseAsWritten", "on").post(APPROVE), 400);
        Element section = page.selectFirst("section#item-" + ITEM);
        assertEquals("Number must be greater than or equal to 1", section.selectFirst("p.field-error#error-daysSupply").text());
        assertEquals("Expected number, received string", section.selectFirst("p.field-error#error-refills").text());
        Element days = section.selectFirst("[name=daysSupply]");
        assertEquals("true", days.attr("aria-invalid"));
        assertEquals("error-daysSupply", days.attr("aria-describedby"));
        assertEquals("error-refills", section.selectFirst("[name=refills]").attr("aria-describedby"));
        assertEquals("", section.selectFirst("[name=quantity]").attr("aria-invalid"));
        assertEquals(List.of("", "30", "tablets", "0", "two"), section.select("form[action$=/approve] input[type=text]").stream().map(Element::val).toList());
        assertEquals("Take one daily", section.selectFirst("[name=directions]").wholeText());
        assertNotNull(section.selectFirst("[name=dispenseAsWritten][checked]"));
        assertEquals(2, page.select(".field-error").size());
        assertNull(page.selectFirst("section#item-" + CALL + " .field-error"));
    }

    /** Issue #45: an approval without a SKU is refused with an issue at the SKU (requests-service), shown next to it. */
    @Test
    void aMissingSkuIsShownAtTheSkuFieldWithTheSkusToChooseFrom() {
        request(member());
        refused(post(urlPathMatching("/ops/v1/requests/.*/approve")), 400, "{\"error\":["
                + "{\"code\":\"custom\",\"path\":[\"prescription\",\"skuId\"],\"message\":\"skuId is required: one of sku_1, sku_2\"}]}");
        Document page = page(approveForm(ConsoleCalls.prescriber()).post(APPROVE), 400);
        Element section = page.selectFirst("section#item-" + ITEM);
        assertEquals("skuId is required: one of sku_1, sku_2", section.selectFirst("p.field-error#error-skuId").text());
        assertEquals("error-skuId", section.selectFirst("[name=skuId]").attr("aria-describedby"));
        assertEquals(1, page.select(".field-error").size());
        assertNull(page.selectFirst("p[role=alert]#form-error"));
    }

    @Test
    void aRefusalAboutNoFieldIsTheFormsMessage() {
        request(member());
        refused(post(urlPathMatching("/ops/v1/requests/.*/approve")), 409, "{\"error\":\"Item is not pending\"}");
        Document page = page(approveForm(ConsoleCalls.prescriber()).post(APPROVE), 409);
        assertEquals("Item is not pending", page.selectFirst("p[role=alert]#form-error").text());
    }

    @Test
    void denyingSendsTheReasonAndConsultationNothing() {
        Neighbours.gateway().stubFor(post(urlPathMatching("/ops/v1/requests/.*")).willReturn(okJson("{\"request\":{}}")));
        TestSession session = ConsoleCalls.prescriber();
        assertSeeOther(formAs(session).formParam("csrf", session.csrf()).formParam("reason", " Not suitable ").post(PAGE + "/items/" + ITEM + "/deny"),
                PAGE + "?done=denied");
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo("/ops/v1/requests/" + ID + "/items/" + ITEM + "/deny"))
                .withRequestBody(equalToJson("{\"reason\":\"Not suitable\"}")));
        assertSeeOther(formAs(session).formParam("csrf", session.csrf()).formParam("reason", "").post(PAGE + "/items/" + CALL + "/deny"),
                PAGE + "?done=denied");
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo("/ops/v1/requests/" + ID + "/items/" + CALL + "/deny"))
                .withRequestBody(equalToJson("{}")));
        assertSeeOther(formAs(session).formParam("csrf", session.csrf()).post(PAGE + "/items/" + ITEM + "/request-consultation"),
                PAGE + "?done=consultation");
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo("/ops/v1/requests/" + ID + "/items/" + ITEM + "/request-consultation"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)).withRequestBody(equalToJson("{}")));
    }

    @Test
    void aDenyReasonRefusedIsShownNextToIt() {
        request(member());
        refused(post(urlPathMatching("/ops/v1/requests/.*/deny")), 400,
                "{\"error\":[{\"code\":\"too_big\",\"path\":[\"reason\"],\"message\":\"String must contain at most 1000 character(s)\"}]}");
        TestSession session = ConsoleCalls.prescriber();
        Document page = page(formAs(session).formParam("csrf", session.csrf()).formParam("reason", "x".repeat(1001))
                .post(PAGE + "/items/" + ITEM + "/deny"), 400);
        Element reason = page.selectFirst("section#item-" + ITEM + " [name=reason]");
        assertEquals("x".repeat(1001), reason.wholeText());
        assertEquals("error-reason", reason.attr("aria-describedby"));
        assertEquals("String must contain at most 1000 character(s)", page.selectFirst("#error-reason").text());
    }

    @Test
    void supportPostingADecisionOrAFormWithoutItsTokenIsRefusedAndNothingIsAsked() {
        TestSession support = ConsoleCalls.support();
        for (String decision : List.of("approve", "deny", "request-consultation")) {
            Document page = page(approveForm(support).post(PAGE + "/items/" + ITEM + "/" + decision), 403);
            assertEquals("You do not have access to this page.", page.selectFirst("h1 + p").text());
            Document expired = page(formAs(ConsoleCalls.prescriber()).formParam("csrf", support.csrf())
                    .post(PAGE + "/items/" + ITEM + "/" + decision), 403);
            assertEquals("This form has expired. Reload the page and try again.", expired.selectFirst("h1 + p").text());
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }
}
