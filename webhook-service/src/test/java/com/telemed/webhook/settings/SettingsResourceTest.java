package com.telemed.webhook.settings;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.webhook.support.Partners;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class SettingsResourceTest {

    private static String path(String partnerId) {
        return "/ops/v1/partners/" + partnerId + "/webhook";
    }

    private static io.restassured.response.ValidatableResponse put(String partnerId, String body) {
        return given().contentType("application/json").body(body).when().put(path(partnerId)).then();
    }

    @Test
    void firstUrlGeneratesTheSecretWhichNeverChangesAfterwards() {
        String partner = Partners.newPartner();
        String secret = put(partner, "{\"url\":\"https://hooks.partner.example/a\"}")
                .statusCode(200)
                .body("url", equalTo("https://hooks.partner.example/a"))
                .body("secret", matchesPattern("[0-9a-f]{64}"))
                .extract().path("secret");

        put(partner, "{\"url\":\"http://127.0.0.1:9/b\"}").statusCode(200)
                .body("url", equalTo("http://127.0.0.1:9/b")).body("secret", equalTo(secret));
        // null turns delivery off and keeps (and shows) the secret
        put(partner, "{\"url\":null}").statusCode(200)
                .body("url", nullValue()).body("secret", equalTo(secret));
        put(partner, "{\"url\":\"https://hooks.partner.example/c\"}").statusCode(200)
                .body("url", equalTo("https://hooks.partner.example/c")).body("secret", equalTo(secret));
    }

    @Test
    void theSecretIsEncryptedAtRest() {
        String partner = Partners.newPartner();
        String secret = Partners.setUrl(partner, "https://hooks.partner.example/x");
        Map<String, Object> row = ServiceDatabase.rows("SELECT secret_encrypted, secret_key_id FROM webhook_settings WHERE partner_id = ?",
                partner).get(0);
        byte[] stored = (byte[]) row.get("secret_encrypted");
        assertEquals(12 + 64 + 16, stored.length);
        assertFalse(new String(stored, StandardCharsets.ISO_8859_1).contains(secret));
        // Stored with the id of the first configured key (the test profile's development key list).
        assertEquals("local", row.get("secret_key_id"));
    }

    @Test
    void nullUrlForAPartnerWithoutSettingsHasNoSecret() {
        String partner = Partners.newPartner();
        put(partner, "{\"url\":null}").statusCode(200).body("url", nullValue()).body("secret", nullValue());
        given().when().post(path(partner) + "/secret/rotate").then()
                .statusCode(404).body(equalTo("{\"error\":\"Webhook not found\"}"));
        // the first real URL generates it
        put(partner, "{\"url\":\"https://hooks.partner.example/x\"}").statusCode(200)
                .body("secret", matchesPattern("[0-9a-f]{64}"));
    }

    @Test
    void rotationReplacesTheSecretAndItStaysReplaced() {
        String partner = Partners.newPartner();
        String first = Partners.setUrl(partner, "https://hooks.partner.example/x");
        String rotated = given().when().post(path(partner) + "/secret/rotate").then()
                .statusCode(200).body("secret", matchesPattern("[0-9a-f]{64}")).extract().path("secret");
        assertNotEquals(first, rotated);
        put(partner, "{\"url\":\"https://hooks.partner.example/y\"}").statusCode(200).body("secret", equalTo(rotated));
    }

    @Test
    void rotateUnknownPartnerIs404() {
        given().when().post(path(Partners.newPartner()) + "/secret/rotate").then()
                .statusCode(404).body(equalTo("{\"error\":\"Webhook not found\"}"));
    }

    @Test
    void urlMustBeAnAbsoluteHttpOrHttpsUrl() {
        String partner = Partners.newPartner();
        String invalidUrl = "{\"error\":[{\"code\":\"invalid_string\",\"validation\":\"url\",\"path\":[\"url\"],\"message\":\"Invalid url\"}]}";
        for (String url : new String[] {"not a url", "/relative", "ftp://files.partner.example/x", "hooks.partner.example",
                "", "javascript:alert(1)"}) {
            put(partner, "{\"url\":\"" + url + "\"}").statusCode(400).body(equalTo(invalidUrl));
        }
        put(partner, "{\"url\":42}").statusCode(400).body(equalTo(
                "{\"error\":[{\"code\":\"invalid_type\",\"expected\":\"string\",\"received\":\"number\",\"path\":[\"url\"],"
                        + "\"message\":\"Expected string, received number\"}]}"));
        put(partner, "{}").statusCode(400).body(equalTo(
                "{\"error\":[{\"code\":\"invalid_type\",\"expected\":\"string\",\"received\":\"undefined\",\"path\":[\"url\"],"
                        + "\"message\":\"Required\"}]}"));
        put(partner, "{\"url\":").statusCode(400).body(equalTo("{\"error\":\"Invalid JSON\"}"));
        // nothing was saved
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM webhook_settings WHERE partner_id = ?", partner));
    }

    @Test
    void sandboxAllowsHttpAndLoopback() {
        put(Partners.newPartner(), "{\"url\":\"http://localhost:8080/hooks\"}").statusCode(200)
                .body("url", equalTo("http://localhost:8080/hooks"));
    }
}
