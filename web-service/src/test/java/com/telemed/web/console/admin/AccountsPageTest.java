package com.telemed.web.console.admin;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.deleteRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.telemed.web.console.ConsoleCalls.as;
import static com.telemed.web.console.ConsoleCalls.assertSeeOther;
import static com.telemed.web.console.ConsoleCalls.formAs;
import static com.telemed.web.console.ConsoleCalls.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/** The accounts page: the table and its delete forms, the create form and the gateway's issues next to its fields, who may use it. */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class AccountsPageTest {

    static final String ADMIN_ID = "0d9e8f7a-6b5c-4d3e-8f1a-2b3c4d5e6f70";
    static final String DOCTOR_ID = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";
    static final String PASSWORD = "correct horse battery staple";

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    static void accounts() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/accounts")).willReturn(okJson("{\"accounts\":["
                + "{\"id\":\"" + ADMIN_ID + "\",\"email\":\"admin@example.com\",\"name\":\"Admin <One>\",\"roles\":[\"admin\"],"
                + "\"prescriberId\":null,\"createdAt\":\"2030-01-01T00:00:00Z\"},"
                + "{\"id\":\"" + DOCTOR_ID + "\",\"email\":\"ada@example.com\",\"name\":\"Dr Ada\",\"roles\":[\"prescriber\",\"support\"],"
                + "\"prescriberId\":\"" + ConsoleCalls.PRESCRIBER_ID + "\",\"createdAt\":\"2030-01-02T00:00:00Z\"}]}")));
    }

    static void refusal(int status, String body) {
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/accounts")).willReturn(aResponse().withStatus(status)
                .withHeader("Content-Type", "application/json").withBody(body)));
    }

    @Test
    void theAccountsAreListedEachWithItsDeleteFormAndTheCreateForm() {
        accounts();
        Document page = page(as(ConsoleCalls.admin()).get("/console/accounts"), 200);
        assertEquals("Accounts", page.selectFirst("h1").text());
        List<Element> rows = page.select("table#accounts tbody tr");
        assertEquals(List.of(ADMIN_ID, DOCTOR_ID), rows.stream().map(row -> row.attr("data-account-id")).toList());
        assertEquals(List.of("admin@example.com", "Admin <One>", "admin", "-"), rows.get(0).select("td").stream().limit(4).map(Element::text).toList());
        assertEquals(List.of("ada@example.com", "Dr Ada", "prescriber, support", ConsoleCalls.PRESCRIBER_ID),
                rows.get(1).select("td").stream().limit(4).map(Element::text).toList());
        assertEquals("/console/accounts/" + DOCTOR_ID + "/delete", rows.get(1).selectFirst("form.delete-account").attr("action"));
        assertEquals("Delete ada@example.com", rows.get(1).selectFirst("form.delete-account button").text());
        Element create = page.selectFirst("form.create-account");
        assertEquals("/console/accounts", create.attr("action"));
        assertEquals(List.of("email", "name", "roles", "roles", "roles", "prescriberId", "password"),
                create.select("input:not([type=hidden])").stream().map(field -> field.attr("name")).toList());
        assertEquals(List.of("admin", "prescriber", "support"), create.select("input[name=roles]").stream().map(Element::val).toList());
        assertEquals(List.of("Email", "Name", "admin", "prescriber", "support", "Prescriber id", "Password"),
                create.select("label").stream().map(Element::text).toList());
        assertEquals("password", create.selectFirst("#password").attr("type"));
        assertEquals("Create account", create.selectFirst("button").text());
        assertNull(page.selectFirst("#notice"));
        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo("/ops/v1/accounts"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)));
    }

    @Test
    void noAccountsAndTheNotices() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/accounts")).willReturn(okJson("{\"accounts\":[]}")));
        Document page = page(as(ConsoleCalls.admin()).get("/console/accounts?done=created"), 200);
        assertEquals("No accounts.", page.selectFirst("#accounts-empty").text());
        assertEquals("Account created", page.selectFirst("p#notice[role=status]").text());
        assertEquals("Account deleted", page(as(ConsoleCalls.admin()).get("/console/accounts?done=deleted"), 200).selectFirst("#notice").text());
        assertNull(page(as(ConsoleCalls.admin()).get("/console/accounts?done=other"), 200).selectFirst("#notice"));
    }

    @Test
    void creatingAnAccountSendsWhatWasTypedAndLeadsBackToTheList() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/accounts")).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"account\":{\"id\":\"" + DOCTOR_ID + "\",\"email\":\"ada@example.com\",\"name\":\"Dr Ada\",\"roles\":[\"prescriber\"],"
                        + "\"prescriberId\":\"" + ConsoleCalls.PRESCRIBER_ID + "\",\"createdAt\":\"2030-01-02T00:00:00Z\"}}")));
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        Response[] answer = new Response[1];
        List<String> lines = LogLines.during(1, () -> answer[0] = formAs(admin).formParam("csrf", admin.csrf())
                .formParam("email", " ada@example.com ").formParam("name", "Dr Ada").formParam("roles", "prescriber").formParam("roles", "support")
                .formParam("prescriberId", ConsoleCalls.PRESCRIBER_ID).formParam("password", PASSWORD).post("/console/accounts"));
        assertSeeOther(answer[0], "/console/accounts?done=created");
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo("/ops/v1/accounts"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN))
                .withRequestBody(equalToJson("{\"email\":\"ada@example.com\",\"name\":\"Dr Ada\",\"roles\":[\"prescriber\",\"support\"],"
                        + "\"prescriberId\":\"" + ConsoleCalls.PRESCRIBER_ID + "\",\"password\":\"" + PASSWORD + "\"}")));
        assertTrue(lines.stream().noneMatch(line -> line.contains(PASSWORD)), () -> "the password in the log: " + lines);

        formAs(admin).formParam("csrf", admin.csrf()).formParam("email", "sam@example.com").formParam("name", "Sam")
                .formParam("roles", "support").formParam("roles", "pharmacy").formParam("prescriberId", " ").formParam("password", PASSWORD)
                .post("/console/accounts").then().statusCode(303);
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo("/ops/v1/accounts"))
                .withRequestBody(equalToJson("{\"email\":\"sam@example.com\",\"name\":\"Sam\",\"roles\":[\"support\"],\"password\":\"" + PASSWORD + "\"}")));
    }

    @Test
    void theGatewaysIssuesAreShownNextToTheirFieldsWithWhatWasTypedButThePassword() {
        accounts();
        refusal(400, "{\"error\":["
                + "{\"code\":\"invalid_string\",\"path\":[\"email\"],\"message\":\"Invalid email\"},"
                + "{\"code\":\"invalid_enum_value\",\"path\":[\"roles\",0],\"message\":\"Invalid enum value\"},"
                + "{\"code\":\"custom\",\"path\":[\"prescriberId\"],\"message\":\"prescriberId is required for a prescriber account\"},"
                + "{\"code\":\"too_small\",\"path\":[\"password\"],\"message\":\"String must contain at least 12 character(s)\"}]}");
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        Document page = page(formAs(admin).formParam("csrf", admin.csrf()).formParam("email", "not an email").formParam("name", "Dr <Ada>")
                .formParam("roles", "prescriber").formParam("password", "short").post("/console/accounts"), 400);
        assertTrue(page.title().startsWith("Error: "));
        for (String[] expected : List.of(new String[] {"email", "Invalid email"},
                new String[] {"prescriberId", "prescriberId is required for a prescriber account"},
                new String[] {"password", "String must contain at least 12 character(s)"})) {
            assertEquals(expected[1], page.selectFirst("p.field-error#error-" + expected[0]).text());
            Element field = page.selectFirst("#" + expected[0]);
            assertEquals("true", field.attr("aria-invalid"));
            assertEquals("error-" + expected[0], field.attr("aria-describedby"));
        }
        assertEquals("Invalid enum value", page.selectFirst("#error-roles").text());
        assertEquals("error-roles", page.selectFirst("fieldset").attr("aria-describedby"));
        assertNull(page.selectFirst("#error-name"));
        assertFalse(page.selectFirst("#name").hasAttr("aria-invalid"));
        assertEquals("not an email", page.selectFirst("#email").val());
        assertEquals("Dr <Ada>", page.selectFirst("#name").val());
        assertTrue(page.selectFirst("#roles-prescriber").hasAttr("checked"));
        assertFalse(page.selectFirst("#roles-admin").hasAttr("checked"));
        assertEquals("", page.selectFirst("#password").val());
        assertFalse(page.html().contains("short\""));
        assertEquals(2, page.select("table#accounts tbody tr").size());
    }

    @Test
    void aRefusalAboutOneFieldIsShownNextToItAndAnyOtherAboveTheForm() {
        accounts();
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        refusal(400, "{\"error\":\"Account with this email already exists\"}");
        Document taken = page(formAs(admin).formParam("csrf", admin.csrf()).formParam("email", "ada@example.com").formParam("name", "Ada")
                .formParam("roles", "support").formParam("password", PASSWORD).post("/console/accounts"), 400);
        assertEquals("Account with this email already exists", taken.selectFirst("#error-email").text());
        assertNull(taken.selectFirst("#form-error"));

        refusal(400, "{\"error\":\"Prescriber not found\"}");
        Document unknown = page(formAs(admin).formParam("csrf", admin.csrf()).formParam("email", "ada@example.com").formParam("name", "Ada")
                .formParam("roles", "prescriber").formParam("prescriberId", "nope").formParam("password", PASSWORD).post("/console/accounts"), 400);
        assertEquals("Prescriber not found", unknown.selectFirst("#error-prescriberId").text());
        assertEquals("nope", unknown.selectFirst("#prescriberId").val());

        refusal(409, "{\"error\":\"Something else\"}");
        Document other = page(formAs(admin).formParam("csrf", admin.csrf()).formParam("email", "ada@example.com").formParam("name", "Ada")
                .formParam("roles", "support").formParam("password", PASSWORD).post("/console/accounts"), 409);
        assertEquals("Something else", other.selectFirst("p#form-error[role=alert]").text());
    }

    @Test
    void deletingAnAccountLeadsBackToTheList() {
        Neighbours.gateway().stubFor(delete(urlPathEqualTo("/ops/v1/accounts/" + DOCTOR_ID)).willReturn(aResponse().withStatus(204)));
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        assertSeeOther(formAs(admin).formParam("csrf", admin.csrf()).post("/console/accounts/" + DOCTOR_ID + "/delete"),
                "/console/accounts?done=deleted");
        Neighbours.gateway().verify(1, deleteRequestedFor(urlPathEqualTo("/ops/v1/accounts/" + DOCTOR_ID))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)));

        Neighbours.gateway().stubFor(delete(urlPathEqualTo("/ops/v1/accounts/gone")).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Account not found\"}")));
        Document page = page(formAs(admin).formParam("csrf", admin.csrf()).post("/console/accounts/gone/delete"), 404);
        assertEquals("Account not found", page.selectFirst("h1").text());
    }

    @Test
    void aFormWithoutTheSessionsTokenIsRefusedAndNothingIsAsked() {
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        for (Response response : List.of(formAs(admin).formParam("email", "a@example.com").post("/console/accounts"),
                formAs(admin).formParam("csrf", "nope").formParam("email", "a@example.com").post("/console/accounts"),
                formAs(admin).formParam("csrf", "nope").post("/console/accounts/" + DOCTOR_ID + "/delete"),
                formAs(admin).post("/console/accounts/" + DOCTOR_ID + "/delete"))) {
            assertEquals("This form has expired. Reload the page and try again.", page(response, 403).selectFirst("h1 + p").text());
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aPrescriberOrSupportGetsTheForbiddenPageAndNothingIsAsked() {
        for (ConsoleCalls.TestSession session : List.of(ConsoleCalls.prescriber(), ConsoleCalls.support())) {
            for (Response response : List.of(as(session).get("/console/accounts"),
                    formAs(session).formParam("csrf", session.csrf()).formParam("email", "a@example.com").formParam("password", PASSWORD)
                            .post("/console/accounts"),
                    formAs(session).formParam("csrf", session.csrf()).post("/console/accounts/" + DOCTOR_ID + "/delete"))) {
                Document page = page(response, 403);
                assertEquals("You do not have access to this page.", page.selectFirst("h1 + p").text());
            }
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void theGatewaySigningTheSessionOutOrDownIsItsAnswer() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/accounts")).willReturn(aResponse().withStatus(401)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Invalid token\"}")));
        assertSeeOther(as(ConsoleCalls.admin()).redirects().follow(false).get("/console/accounts"), "/console/sign-in");
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/accounts")).willReturn(aResponse().withStatus(503)));
        assertEquals("Sorry, the service is unavailable", page(as(ConsoleCalls.admin()).get("/console/accounts"), 503).selectFirst("h1").text());
    }
}
