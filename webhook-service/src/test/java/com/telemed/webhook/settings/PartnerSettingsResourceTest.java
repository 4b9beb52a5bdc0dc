package com.telemed.webhook.settings;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.webhook.support.Events;
import com.telemed.webhook.support.Hmac;
import com.telemed.webhook.support.Partners;
import com.telemed.webhook.support.Receiver;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.Test;

/**
 * The partner's own webhook settings (partner-extensions.md, "Webhook settings, self-service"), called as
 * the gateway forwards them: {@code X-Partner-Id} names the partner.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class PartnerSettingsResourceTest {

    private static final String HEX64 = "[0-9a-f]{64}";

    private static ValidatableResponse get(String partnerId) {
        return given().header("X-Partner-Id", partnerId).when().get("/v1/webhook").then();
    }

    private static ValidatableResponse put(String partnerId, String body) {
        return given().header("X-Partner-Id", partnerId).contentType("application/json").body(body).when().put("/v1/webhook").then();
    }

    private static ValidatableResponse rotate(String partnerId) {
        return given().header("X-Partner-Id", partnerId).when().post("/v1/webhook/secret/rotate").then();
    }

    @Test
    void theSecretIsShownWhenTheFirstUrlIsSavedAndNeverAgain() {
        String partner = Partners.newPartner();
        get(partner).statusCode(200).body(equalTo("{\"url\":null,\"secretSet\":false}"));

        String body = put(partner, "{\"url\":\"https://hooks.partner.example/a\"}").statusCode(200).extract().asString();
        assertTrue(body.matches("\\{\"url\":\"https://hooks.partner.example/a\",\"secret\":\"" + HEX64 + "\"}"), body);
        String secret = body.substring(body.indexOf("\"secret\":\"") + 10, body.length() - 2);
        get(partner).statusCode(200).body(equalTo("{\"url\":\"https://hooks.partner.example/a\",\"secretSet\":true}"));

        put(partner, "{\"url\":\"https://hooks.partner.example/b\"}").statusCode(200)
                .body(equalTo("{\"url\":\"https://hooks.partner.example/b\"}"));
        // null turns delivery off and keeps the secret, which a later URL does not show again
        put(partner, "{\"url\":null}").statusCode(200).body(equalTo("{\"url\":null}"));
        get(partner).statusCode(200).body(equalTo("{\"url\":null,\"secretSet\":true}"));
        put(partner, "{\"url\":\"https://hooks.partner.example/c\"}").statusCode(200)
                .body(equalTo("{\"url\":\"https://hooks.partner.example/c\"}"));

        // One setting, whoever saves it: the operator's call shows the same secret and URL.
        given().contentType("application/json").body("{\"url\":\"https://hooks.partner.example/c\"}")
                .when().put("/ops/v1/partners/" + partner + "/webhook").then().statusCode(200)
                .body(equalTo("{\"url\":\"https://hooks.partner.example/c\",\"secret\":\"" + secret + "\"}"));
    }

    @Test
    void nullOnAPartnerWithoutSettingsStoresNoSecret() {
        String partner = Partners.newPartner();
        put(partner, "{\"url\":null}").statusCode(200).body(equalTo("{\"url\":null}"));
        get(partner).statusCode(200).body(equalTo("{\"url\":null,\"secretSet\":false}"));
        rotate(partner).statusCode(409).body(equalTo("{\"error\":\"No webhook URL configured\"}"));
        put(partner, "{\"url\":\"https://hooks.partner.example/x\"}").statusCode(200).body("secret", org.hamcrest.Matchers.matchesPattern(HEX64));
    }

    @Test
    void rotatingWithoutASecretIs409AndStoresNothing() {
        String partner = Partners.newPartner();
        rotate(partner).statusCode(409).body(equalTo("{\"error\":\"No webhook URL configured\"}"));
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM webhook_settings WHERE partner_id = ?", partner));
    }

    @Test
    void eachPartnerSeesAndChangesOnlyItsOwnSettings() {
        String mine = Partners.newPartner();
        String theirs = Partners.newPartner();
        String theirSecret = Partners.setUrl(theirs, "https://hooks.other.example/x");
        put(mine, "{\"url\":\"https://hooks.partner.example/mine\"}").statusCode(200);
        get(mine).statusCode(200).body(equalTo("{\"url\":\"https://hooks.partner.example/mine\",\"secretSet\":true}"));
        rotate(mine).statusCode(200);
        given().contentType("application/json").body("{\"url\":\"https://hooks.other.example/x\"}")
                .when().put("/ops/v1/partners/" + theirs + "/webhook").then().statusCode(200)
                .body(equalTo("{\"url\":\"https://hooks.other.example/x\",\"secret\":\"" + theirSecret + "\"}"));
    }

    @Test
    void withoutThePartnerHeaderTheCallIsRefused() {
        given().when().get("/v1/webhook").then().statusCode(401).body(equalTo("{\"error\":\"API Key missing\"}"));
    }

    @Test
    void urlRulesAreTheOperatorCallsAndNothingIsSavedOnA400() {
        String partner = Partners.newPartner();
        put(partner, "{\"url\":\"ftp://files.partner.example/x\"}").statusCode(400).body(equalTo(
                "{\"error\":[{\"code\":\"invalid_string\",\"validation\":\"url\",\"path\":[\"url\"],\"message\":\"Invalid url\"}]}"));
        put(partner, "{}").statusCode(400).body(equalTo(
                "{\"error\":[{\"code\":\"invalid_type\",\"expected\":\"string\",\"received\":\"undefined\",\"path\":[\"url\"],"
                        + "\"message\":\"Required\"}]}"));
        put(partner, "{\"url\":").statusCode(400).body(equalTo("{\"error\":\"Invalid JSON\"}"));
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM webhook_settings WHERE partner_id = ?", partner));
    }

    /** The partner's own changes are not audit entries: the audit trail is the back office's (/ops) changes. */
    @Test
    void thePartnersOwnChangesWriteNoAuditEntry() {
        String partner = Partners.newPartner();
        put(partner, "{\"url\":\"https://hooks.partner.example/a\"}").statusCode(200);
        rotate(partner).statusCode(200);
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM audit_entries WHERE partner_id = ?", partner));
    }

    /** After a rotation the next event is signed with the new secret, not the old one. */
    @Test
    void theRotatedSecretSignsTheNextDeliveryAndTheOldOneNoLonger() throws Exception {
        try (Receiver receiver = Receiver.answering(200)) {
            String partner = Partners.newPartner();
            String body = put(partner, "{\"url\":\"" + receiver.url() + "\"}").statusCode(200).extract().asString();
            String old = body.substring(body.indexOf("\"secret\":\"") + 10, body.length() - 2);
            String rotated = rotate(partner).statusCode(200).body("secret", org.hamcrest.Matchers.matchesPattern(HEX64))
                    .extract().path("secret");
            assertNotEquals(old, rotated);
            assertEquals("{\"url\":\"" + receiver.url() + "\",\"secretSet\":true}", get(partner).statusCode(200).extract().asString());

            Events.publish("care.events", "r-rotated", Events.envelope(Events.newId(), partner, "item.approved",
                    Events.itemApproved("r-rotated")));
            assertTrue(receiver.await(1, 15_000), "delivered");
            Receiver.Received received = receiver.received().get(0);
            String timestamp = received.header("X-Webhook-Timestamp");
            assertEquals(Hmac.expectedSignature(rotated, timestamp, received.body()), received.header("X-Webhook-Signature"));
            assertNotEquals(Hmac.expectedSignature(old, timestamp, received.body()), received.header("X-Webhook-Signature"));
        }
    }
}
