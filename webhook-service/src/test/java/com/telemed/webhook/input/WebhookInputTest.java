package com.telemed.webhook.input;

import static com.telemed.testkit.http.Refusals.assertRefused;
import static com.telemed.testkit.http.Refusals.invalidCharacter;
import static com.telemed.testkit.http.Refusals.tooLong;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.webhook.support.Partners;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Operator input that used to answer 500 (issue 13): unstorable text in a path or query
 * parameter or the body, a partner id past its primary key's index entry, an unbounded URL.
 * Each is a 400 issue array and stores nothing.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class WebhookInputTest {

    private static final Duration FAST = Duration.ofSeconds(5);

    private static Response put(String partnerPath, String body) {
        return assertTimeoutPreemptively(FAST, () -> given().urlEncodingEnabled(false).contentType("application/json")
                .body(body).put("/ops/v1/partners/" + partnerPath + "/webhook"));
    }

    private static long settings(String partnerId) {
        return ServiceDatabase.count("SELECT count(*) FROM webhook_settings WHERE partner_id = ?", partnerId);
    }

    @Test
    void unstorableTextInThePathOrTheBodyIsOneIssueEachAndNothingIsSaved() {
        assertRefused(put("p%00", "{\"url\": \"https://hooks.partner.example/\\u0000\"}"),
                invalidCharacter("[\"partnerId\"]"));
        String partner = Partners.newPartner();
        assertRefused(put(partner, "{\"url\": \"https://hooks.partner.example/\\ud800\"}"), invalidCharacter("[\"url\"]"));
        assertEquals(0, settings(partner));
    }

    @Test
    void aPartnerIdPastItsIndexEntryAndAnOverlongUrlAreTooBig() {
        String longPartner = "p".repeat(3000);
        String longUrl = "https://hooks.partner.example/" + "a".repeat(2048);
        assertRefused(put(longPartner, "{\"url\": \"" + longUrl + "\"}"),
                tooLong("[\"partnerId\"]", 64), tooLong("[\"url\"]", 2048));
        assertEquals(0, settings(longPartner));

        String partner = Partners.newPartner();
        String longest = "https://hooks.partner.example/" + "a".repeat(2048 - 30);
        assertEquals(2048, longest.length());
        Partners.setUrl(partner, longest);
        assertEquals(1, settings(partner));
    }

    @Test
    void theDeliveryLogRefusesUnstorableOrOverlongEventNames() {
        String partner = Partners.newPartner();
        assertRefused(assertTimeoutPreemptively(FAST, () -> given().urlEncodingEnabled(false)
                .get("/ops/v1/partners/" + partner + "/webhook/deliveries?event=item.%00")), invalidCharacter("[\"event\"]"));
        assertRefused(given().queryParam("event", "e".repeat(101)).get("/ops/v1/partners/" + partner + "/webhook/deliveries"),
                tooLong("[\"event\"]", 100));
    }
}
