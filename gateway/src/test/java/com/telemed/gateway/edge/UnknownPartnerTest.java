package com.telemed.gateway.edge;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 45: every partner-scoped operator call answers {@code 404 {"error":"Partner not found"}} for a
 * partner the gateway does not know, whichever service owns the setting, and nothing reaches that
 * service (the fake services of {@link UpstreamServer} record every call they get). Credential and
 * access come first: no credential {@code 401}; a caller the access table refuses is forwarded as
 * before, for the service's {@code 403}.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = UpstreamServer.class, scope = TestResourceScope.GLOBAL)
class UnknownPartnerTest {

    private static final String PARTNER_NOT_FOUND = "{\"error\":\"Partner not found\"}";

    /** A call of a partner-scoped operation: method, the path after {@code /ops/v1/partners/:id}, body (null: none). */
    record Call(String method, String setting, String body) {
        String path(String partnerId) {
            return "/ops/v1/partners/" + partnerId + setting;
        }

        @Override
        public String toString() {
            return method + " /ops/v1/partners/{id}" + setting;
        }
    }

    /** Every partner setting the gateway forwards (edge.Routes), one call per operation of the access table. */
    static final List<Call> FORWARDED = List.of(
            new Call("PUT", "/webhook", "{\"url\":\"https://hooks.example/telemed\"}"),
            new Call("POST", "/webhook/secret/rotate", null),
            new Call("GET", "/webhook/deliveries", null),
            new Call("POST", "/webhook/deliveries/" + UUID.randomUUID() + "/redeliver", null),
            new Call("PUT", "/drug-access", "{\"drugIds\":null}"),
            new Call("GET", "/fulfilment", null),
            new Call("PUT", "/fulfilment", "{\"mode\":\"deferred\"}"),
            new Call("GET", "/billing", null),
            new Call("PUT", "/billing", "{\"enabled\":true,\"cycle\":\"monthly\",\"ratePerMember\":1.5}"),
            new Call("POST", "/billing/rebuild", null));

    /** The gateway's own partner operations, which look the partner up themselves. */
    static final List<Call> GATEWAYS_OWN = List.of(
            new Call("GET", "", null),
            new Call("POST", "/api-key/rotate", null),
            new Call("PUT", "/embed-origins", "{\"origins\":[\"https://partner.example\"]}"));

    static Stream<Arguments> forwardedCallsOfUnknownPartners() {
        return FORWARDED.stream().flatMap(call -> Stream.of(
                Arguments.of(call, "not-a-partner"),
                Arguments.of(call, UUID.randomUUID().toString())));
    }

    @ParameterizedTest(name = "{0} of {1}")
    @MethodSource("forwardedCallsOfUnknownPartners")
    void aForwardedSettingOfAnUnknownPartnerIsNotFoundAndNeverForwarded(Call call, String partnerId) {
        send(operator(), call, partnerId).then().statusCode(404).contentType("application/json")
                .body(equalTo(PARTNER_NOT_FOUND));
        assertEquals(List.of(), upstreamEvents(call.path(partnerId)));
    }

    /** A known partner's id spelled otherwise (upper case) is not the id the services key settings by: not found. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("forwarded")
    void aKnownPartnersIdInAnotherSpellingIsNotFound(Call call) {
        String upper = GatewayEdgeTest.newPartner().partnerId().toUpperCase(Locale.ROOT);
        send(operator(), call, upper).then().statusCode(404).body(equalTo(PARTNER_NOT_FOUND));
        assertEquals(List.of(), upstreamEvents(call.path(upper)));
    }

    static Stream<Call> forwarded() {
        return FORWARDED.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("forwarded")
    void aKnownPartnersSettingIsForwardedAsSent(Call call) {
        String partnerId = GatewayEdgeTest.newPartner().partnerId();
        if (call.setting().startsWith("/billing")) {
            // Billing stands behind a closed port in these tests: forwarded, it is unavailable.
            send(operator(), call, partnerId).then().statusCode(503).body(equalTo("{\"error\":\"Service Unavailable\"}"));
            return;
        }
        send(operator(), call, partnerId).then().statusCode(200)
                .body("method", equalTo(call.method())).body("path", equalTo(call.path(partnerId)))
                .body("bodyLength", equalTo(call.body() == null ? 0 : call.body().length()));
        assertEquals(List.of("opened", "body ended"), upstreamEvents(call.path(partnerId)));
    }

    static Stream<Arguments> gatewaysOwnCallsOfUnknownPartners() {
        return GATEWAYS_OWN.stream().flatMap(call -> Stream.of(
                Arguments.of(call, "not-a-partner"),
                Arguments.of(call, UUID.randomUUID().toString())));
    }

    @ParameterizedTest(name = "{0} of {1}")
    @MethodSource("gatewaysOwnCallsOfUnknownPartners")
    void theGatewaysOwnPartnerOperationsOfAnUnknownPartnerAreNotFound(Call call, String partnerId) {
        send(operator(), call, partnerId).then().statusCode(404).contentType("application/json")
                .body(equalTo(PARTNER_NOT_FOUND));
    }

    /** Credential first: without one, or with a wrong one, 401 whatever the partner. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("forwarded")
    void theCredentialIsCheckedBeforeThePartner(Call call) {
        send(given(), call, "not-a-partner").then().statusCode(401).body(equalTo("{\"error\":\"Ops Key missing\"}"));
        send(given().header("x-ops-key", "wrong"), call, "not-a-partner").then().statusCode(401)
                .body(equalTo("{\"error\":\"Invalid Ops Key\"}"));
        send(given().header("Authorization", "Bearer ops_" + "0".repeat(32)), call, "not-a-partner").then().statusCode(401)
                .body(equalTo("{\"error\":\"Invalid token\"}"));
        assertEquals(List.of(), upstreamEvents(call.path("not-a-partner")));
    }

    /**
     * Access second: a person the access table lets through (support reads deliveries) gets the 404; one it
     * refuses (support changing a webhook), and a pharmacy key, go to the service as before, whose
     * {@code access.OpsAccessFilter} answers {@code 403} (these fake services echo the call instead).
     */
    @Test
    void accessIsJudgedBeforeThePartner() {
        String support = personSession("support");
        String admin = personSession("admin");
        String unknown = UUID.randomUUID().toString();

        Call deliveries = new Call("GET", "/webhook/deliveries", null);
        send(bearer(support), deliveries, unknown).then().statusCode(404).body(equalTo(PARTNER_NOT_FOUND));
        send(bearer(admin), deliveries, unknown).then().statusCode(404).body(equalTo(PARTNER_NOT_FOUND));
        assertEquals(List.of(), upstreamEvents(deliveries.path(unknown)));

        Call webhook = new Call("PUT", "/webhook", "{\"url\":null}");
        send(bearer(admin), webhook, unknown).then().statusCode(404).body(equalTo(PARTNER_NOT_FOUND));
        String refused = UUID.randomUUID().toString();
        send(bearer(support), webhook, refused).then().statusCode(200)
                .body("path", equalTo(webhook.path(refused))).body("headers.x-principal", equalTo(principalOf(support)));

        String pharmacyKey = operator().post("/ops/v1/pharmacies/pharm-unknown-partner/credentials")
                .then().statusCode(201).extract().path("key");
        String byPharmacy = UUID.randomUUID().toString();
        send(bearer(pharmacyKey), webhook, byPharmacy).then().statusCode(200)
                .body("path", equalTo(webhook.path(byPharmacy))).body("headers.x-principal", equalTo("pharmacy:pharm-unknown-partner"));
    }

    private static String personSession(String role) {
        String email = role + "-" + UUID.randomUUID() + "@example.com";
        operator().body(Map.of("email", email, "name", "Sam Example", "roles", List.of(role), "password", "a long enough password"))
                .post("/ops/v1/accounts").then().statusCode(201);
        return given().contentType("application/json").body(Map.of("email", email, "password", "a long enough password"))
                .post("/ops/v1/sessions").then().statusCode(201).extract().path("token");
    }

    /** The principal the edge passes on for a session: read back from what a forwarded call carried. */
    private static String principalOf(String session) {
        return bearer(session).get("/ops/v1/drugs").then().statusCode(200).extract().path("headers.x-principal");
    }

    private static RequestSpecification operator() {
        return given().header("x-ops-key", GatewayEdgeTest.OPS_KEY).contentType("application/json");
    }

    private static RequestSpecification bearer(String token) {
        return given().header("Authorization", "Bearer " + token).contentType("application/json");
    }

    private static io.restassured.response.Response send(RequestSpecification request, Call call, String partnerId) {
        if (call.body() != null) {
            request = request.contentType("application/json").body(call.body());
        }
        return request.request(call.method(), call.path(partnerId));
    }

    /** What became of the calls on {@code path} at the fake service ({@link UpstreamServer#EVENTS}). */
    private static List<String> upstreamEvents(String path) {
        String upstream = ConfigProvider.getConfig().getValue("test.upstream-url", String.class);
        return given().baseUri(upstream).queryParam("path", path).get(UpstreamServer.EVENTS)
                .then().statusCode(200).extract().jsonPath().getList("", String.class);
    }
}
