package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.PlatformService;
import io.restassured.specification.RequestSpecification;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 45: {@code PUT /ops/v1/partners/not-a-partner/webhook} answered {@code 200} with a secret, and stored
 * a webhook that never fires. Through the real gateway and services, every partner-scoped operator call of a
 * partner the gateway does not know answers {@code 404 {"error":"Partner not found"}}, and no service's table
 * holds a row for it afterwards; a real partner's settings still work.
 */
@ExtendWith(RunningPlatform.class)
class UnknownPartnerSettingsIT {

    private static final String PARTNER_NOT_FOUND = "{\"error\":\"Partner not found\"}";

    private record Call(String method, String setting, String body) {
    }

    private static final List<Call> CALLS = List.of(
            new Call("PUT", "/webhook", "{\"url\":\"https://hooks.example/telemed\"}"),
            new Call("POST", "/webhook/secret/rotate", null),
            new Call("GET", "/webhook/deliveries", null),
            new Call("POST", "/webhook/deliveries/" + UUID.randomUUID() + "/redeliver", null),
            new Call("PUT", "/drug-access", "{\"drugIds\":[]}"),
            new Call("GET", "/fulfilment", null),
            new Call("PUT", "/fulfilment", "{\"mode\":\"deferred\"}"),
            new Call("GET", "/billing", null),
            new Call("PUT", "/billing", "{\"enabled\":true,\"cycle\":\"monthly\",\"ratePerMember\":1.5}"),
            new Call("POST", "/billing/rebuild", null),
            new Call("GET", "", null),
            new Call("POST", "/api-key/rotate", null),
            new Call("PUT", "/embed-origins", "{\"origins\":[\"https://partner.example\"]}"));

    @Test
    void everyPartnerScopedOperatorCallOfAnUnknownPartnerIsNotFoundAndStoresNothing(RunningPlatform.Handle platform)
            throws SQLException {
        for (String partnerId : List.of("not-a-partner", UUID.randomUUID().toString())) {
            for (Call call : CALLS) {
                send(ops(platform), call, partnerId).then().statusCode(404).contentType("application/json")
                        .body(equalTo(PARTNER_NOT_FOUND));
            }
            assertEquals(0, count(platform, PlatformService.WEBHOOK, "SELECT count(*) FROM webhook_settings WHERE partner_id = ?", partnerId));
            assertEquals(0, count(platform, PlatformService.CATALOGUE, "SELECT count(*) FROM partner_drug_access WHERE partner_id = ?", partnerId));
            assertEquals(0, count(platform, PlatformService.REQUESTS, "SELECT count(*) FROM fulfilment_settings WHERE partner_id = ?", partnerId));
            assertEquals(0, count(platform, PlatformService.BILLING, "SELECT count(*) FROM billing_settings WHERE partner_id = ?", partnerId));
            assertEquals(0, count(platform, PlatformService.BILLING, "SELECT count(*) FROM ledger_rebuilds WHERE partner_id = ?", partnerId));
            for (PlatformService service : List.of(PlatformService.WEBHOOK, PlatformService.CATALOGUE, PlatformService.REQUESTS,
                    PlatformService.BILLING, PlatformService.GATEWAY)) {
                assertEquals(0, count(platform, service, "SELECT count(*) FROM audit_entries WHERE partner_id = ?", partnerId),
                        service.name());
            }
        }

        // A known partner's settings are forwarded as before.
        String partnerId = ops(platform).body(Map.of("name", "Known Health")).post("/ops/v1/partners")
                .then().statusCode(201).extract().path("partner.id");
        ops(platform).body(Map.of("url", "https://hooks.example/telemed")).put("/ops/v1/partners/" + partnerId + "/webhook")
                .then().statusCode(200).body("url", equalTo("https://hooks.example/telemed"))
                .body("secret", matchesPattern("[0-9a-f]{64}"));
        ops(platform).body(Map.of("mode", "deferred")).put("/ops/v1/partners/" + partnerId + "/fulfilment")
                .then().statusCode(200).body(equalTo("{\"mode\":\"deferred\"}"));
        assertEquals(1, count(platform, PlatformService.WEBHOOK, "SELECT count(*) FROM webhook_settings WHERE partner_id = ?", partnerId));
    }

    private static RequestSpecification ops(RunningPlatform.Handle platform) {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType("application/json");
    }

    private static io.restassured.response.Response send(RequestSpecification request, Call call, String partnerId) {
        if (call.body() != null) {
            request = request.body(call.body());
        }
        return request.request(call.method(), "/ops/v1/partners/" + partnerId + call.setting());
    }

    private static long count(RunningPlatform.Handle platform, PlatformService service, String query, String parameter)
            throws SQLException {
        PostgresServer postgres = platform.infrastructure().postgres();
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(service.database()),
                postgres.username(), postgres.password());
             PreparedStatement statement = connection.prepareStatement(query)) {
            statement.setString(1, parameter);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
