package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.stack.DemoData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The demo data of ./stack up, seeded twice: the second run reuses all of it. */
@ExtendWith(RunningPlatform.class)
class DemoDataIT {

    @Test
    void seedsOnceAndTheDemoKeyWorksThroughTheGateway(RunningPlatform.Handle platform) throws Exception {
        Path kept = Files.createTempDirectory("demo-").resolve("demo.properties");
        DemoData.seed(platform.gateway(), platform.opsKey(), kept);
        Properties first = read(kept);
        DemoData.seed(platform.gateway(), platform.opsKey(), kept);
        Properties second = read(kept);
        assertEquals(first, second);

        given().baseUri(platform.gateway().toString()).header("x-api-key", first.getProperty("apiKey"))
                .get("/v1/drugs")
                .then().statusCode(200)
                // The e2e platform is shared: other tests add drugs of their own to the full catalogue.
                .body("drugs.id", hasItems("semaglutide", "tirzepatide", "finasteride", "sildenafil"))
                .body("drugs.find { it.id == 'sildenafil' }.dosages", equalTo(java.util.List.of("20 mg tablet", "50 mg tablet")))
                .body("drugs.find { it.id == 'sildenafil' }.skus[1].active", equalTo(false))
                .body("drugs.find { it.id == 'sildenafil' }.pharmacy", nullValue());
        given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey())
                .get("/ops/v1/prescribers/" + first.getProperty("prescriberId"))
                .then().statusCode(200).body("prescriber.name", equalTo("Dr. Maya Chen"));
        given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey())
                .get("/ops/v1/drugs")
                .then().statusCode(200).body("drugs.findAll { it.id == 'semaglutide' }.size()", equalTo(1));

        // The request the demo prescriber reviews in the console (issue #41): the demo patient's, pending, one item of a demo drug.
        given().baseUri(platform.gateway().toString()).header("x-api-key", first.getProperty("apiKey"))
                .get("/v1/requests/" + first.getProperty("reviewRequestId"))
                .then().statusCode(200)
                .body("status", equalTo("pending"))
                .body("memberEmail", equalTo("sam.demo@demo-patient.example"))
                .body("lineItems.size()", equalTo(1))
                .body("lineItems[0].drugId", equalTo("semaglutide"))
                .body("lineItems[0].dosage", equalTo("0.25 mg weekly"))
                .body("lineItems[0].status", equalTo("pending"));

        // The first admin and the demo prescriber sign in with what ./stack printed (people-and-pages.md).
        assertEquals("admin@stack.local", first.getProperty("adminEmail"));
        String admin = signIn(platform, first.getProperty("adminEmail"), first.getProperty("adminPassword"));
        given().baseUri(platform.gateway().toString()).header("Authorization", "Bearer " + admin)
                .get("/ops/v1/accounts").then().statusCode(200)
                .body("accounts.find { it.email == 'admin@stack.local' }.roles", equalTo(java.util.List.of("admin")))
                .body("accounts.find { it.email == 'prescriber@stack.local' }.prescriberId", equalTo(first.getProperty("prescriberId")));
        String prescriber = signIn(platform, first.getProperty("prescriberEmail"), first.getProperty("prescriberPassword"));
        given().baseUri(platform.gateway().toString()).header("Authorization", "Bearer " + prescriber)
                .get("/ops/v1/review/queue").then().statusCode(200);
        given().baseUri(platform.gateway().toString()).header("Authorization", "Bearer " + prescriber)
                .get("/ops/v1/sessions/current").then().statusCode(200)
                .body("account.email", equalTo("prescriber@stack.local"))
                .body("account.prescriberId", equalTo(first.getProperty("prescriberId")));
        given().baseUri(platform.gateway().toString()).header("Authorization", "Bearer " + prescriber)
                .get("/ops/v1/accounts").then().statusCode(403).body("error", equalTo("Forbidden"));
    }

    private static String signIn(RunningPlatform.Handle platform, String email, String password) {
        return given().baseUri(platform.gateway().toString()).contentType("application/json")
                .body(java.util.Map.of("email", email, "password", password))
                .post("/ops/v1/sessions").then().statusCode(201).extract().path("token");
    }

    @Test
    void reseedingAfterARotationTakesAFreshKeyForTheSamePartner(RunningPlatform.Handle platform) throws Exception {
        Path kept = Files.createTempDirectory("demo-").resolve("demo.properties");
        DemoData.seed(platform.gateway(), platform.opsKey(), kept);
        Properties first = read(kept);
        given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey())
                .post("/ops/v1/partners/" + first.getProperty("partnerId") + "/api-key/rotate").then().statusCode(200);

        DemoData.seed(platform.gateway(), platform.opsKey(), kept);
        Properties second = read(kept);
        assertEquals(first.getProperty("partnerId"), second.getProperty("partnerId"));
        given().baseUri(platform.gateway().toString()).header("x-api-key", second.getProperty("apiKey"))
                .get("/v1/drugs").then().statusCode(200);
    }

    private static Properties read(Path file) throws Exception {
        Properties properties = new Properties();
        try (var in = Files.newBufferedReader(file)) {
            properties.load(in);
        }
        return properties;
    }
}
