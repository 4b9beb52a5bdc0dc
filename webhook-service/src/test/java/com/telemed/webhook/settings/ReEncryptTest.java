package com.telemed.webhook.settings;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.telemed.common.json.Timestamps;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.webhook.support.Partners;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.Timestamp;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /ops/v1/webhook-secrets/re-encrypt}: every readable secret not on the current key
 * (the test profile's {@code local}, first of {@code webhook.secret-keys}) moves onto it and still
 * reads as the same secret; unreadable ones are counted and left alone. The test profile also
 * configures the old single setting, so the secrets a database stored before key ids (id
 * {@code legacy}) are readable, as in a local database upgraded by this release.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class ReEncryptTest {

    /** What the releases before key ids wrote: the single key, here the development one. */
    private static final SecretCipher BEFORE_KEY_IDS = new SecretCipher(
            SecretKeys.parse(Optional.empty(), Optional.of(SecretKeys.DEVELOPMENT_KEY)));
    private static final SecretCipher ANOTHER_KEY = SecretCipherTest.cipher("retired-2023:" + SecretCipherTest.key(9));

    private static void stage(String partnerId, SecretCipher.Sealed sealed) {
        Timestamp now = Timestamp.from(Timestamps.now());
        ServiceDatabase.update("INSERT INTO webhook_settings (partner_id, url, secret_encrypted, secret_key_id, created_at, updated_at)"
                + " VALUES (?, 'https://hooks.partner.example/x', ?, ?, ?, ?)", partnerId, sealed.bytes(), sealed.keyId(), now, now);
    }

    private static Map<String, Object> stored(String partnerId) {
        return ServiceDatabase.rows("SELECT secret_key_id, secret_encrypted FROM webhook_settings WHERE partner_id = ?", partnerId).get(0);
    }

    private static String shownSecret(String partnerId) {
        return given().contentType("application/json").body("{\"url\":\"https://hooks.partner.example/x\"}")
                .when().put("/ops/v1/partners/" + partnerId + "/webhook").then().statusCode(200).extract().path("secret");
    }

    @Test
    void movesEveryReadableSecretOntoTheCurrentKeyAndCountsTheUnreadable() {
        String legacy = Partners.newPartner();
        SecretCipher.Sealed old = BEFORE_KEY_IDS.encrypt(legacy, "a".repeat(64));
        assertEquals("legacy", old.keyId());
        stage(legacy, old);

        String current = Partners.newPartner();
        String currentSecret = Partners.setUrl(current, "https://hooks.partner.example/y");
        byte[] currentBytes = (byte[]) stored(current).get("secret_encrypted");

        String unknownKey = Partners.newPartner();
        stage(unknownKey, ANOTHER_KEY.encrypt(unknownKey, "b".repeat(64)));
        String tampered = Partners.newPartner();
        SecretCipher.Sealed good = BEFORE_KEY_IDS.encrypt(tampered, "c".repeat(64));
        byte[] broken = good.bytes().clone();
        broken[20] ^= 1;
        stage(tampered, new SecretCipher.Sealed("local", broken));

        // Every other test leaves the secrets it stored readable and on the current key.
        assertEquals(List.of(Map.of("n", 2L)), ServiceDatabase.rows("SELECT count(*) AS n FROM webhook_settings"
                + " WHERE secret_encrypted IS NOT NULL AND secret_key_id <> 'local'"));

        given().when().post("/ops/v1/webhook-secrets/re-encrypt").then().statusCode(200)
                .body(equalTo("{\"reEncrypted\":1,\"unreadable\":2}"));

        Map<String, Object> moved = stored(legacy);
        assertEquals("local", moved.get("secret_key_id"));
        assertFalse(Arrays.equals(old.bytes(), (byte[]) moved.get("secret_encrypted")));
        assertEquals("a".repeat(64), shownSecret(legacy));
        assertEquals("local", stored(current).get("secret_key_id"));
        assertArrayEquals(currentBytes, (byte[]) stored(current).get("secret_encrypted"));
        assertEquals(currentSecret, shownSecret(current));
        assertEquals("retired-2023", stored(unknownKey).get("secret_key_id"));
        assertArrayEquals(broken, (byte[]) stored(tampered).get("secret_encrypted"));

        // Again: nothing left to move; the unreadable stay unreadable until rotated.
        given().when().post("/ops/v1/webhook-secrets/re-encrypt").then().statusCode(200)
                .body(equalTo("{\"reEncrypted\":0,\"unreadable\":2}"));
        given().when().post("/ops/v1/partners/" + unknownKey + "/webhook/secret/rotate").then().statusCode(200);
        given().when().post("/ops/v1/partners/" + tampered + "/webhook/secret/rotate").then().statusCode(200);
        given().when().post("/ops/v1/webhook-secrets/re-encrypt").then().statusCode(200)
                .body(equalTo("{\"reEncrypted\":0,\"unreadable\":0}"));
    }

    /** A secret that cannot be read is not shown: the settings call fails without saving (500), a rotation mends it. */
    @Test
    void anUnreadableSecretIsNeverShownAndRotationMendsIt() {
        String partner = Partners.newPartner();
        stage(partner, ANOTHER_KEY.encrypt(partner, "d".repeat(64)));
        given().contentType("application/json").body("{\"url\":\"https://hooks.partner.example/z\"}")
                .when().put("/ops/v1/partners/" + partner + "/webhook").then().statusCode(500)
                .body(equalTo("{\"error\":\"Internal Server Error\"}"));
        assertEquals("https://hooks.partner.example/x",
                ServiceDatabase.rows("SELECT url FROM webhook_settings WHERE partner_id = ?", partner).get(0).get("url"));
        String rotated = given().when().post("/ops/v1/partners/" + partner + "/webhook/secret/rotate")
                .then().statusCode(200).extract().path("secret");
        assertEquals(rotated, shownSecret(partner));
    }
}
