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
