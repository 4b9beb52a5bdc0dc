package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.telemed.e2e.WebhookReceiver.Received;
import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.stack.DemoData;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The partner guide's first page as a newcomer follows it (issue #45): the shell commands of its
 * {@code ```sh first-hour} blocks, taken from {@code docs/partner-guide.md} itself (everything before
 * "Verify a webhook"), run in order in one bash against the shared platform, so the guide cannot drift
 * from what works. The environment is what {@code ./stack env} prints for demo data seeded as
 * {@code ./stack up} seeds it ({@link DemoData}, the script's own {@code env} command run on that stack
 * home), but for {@code GATEWAY}, this platform's address; the guide's throwaway receiver is this test's
 * {@link WebhookReceiver}, which keeps each delivery in {@code $WEBHOOK_DIR} as the guide's receiver does
 * ({@code <X-Webhook-Id>.timestamp}, {@code .signature}, then {@code .body}). Partner calls only: the
 * approval is the sandbox simulation. The guide's own check must print {@code verified item.approved <id>},
 * and the delivery must verify here too, with the secret the guide kept.
 */
@ExtendWith(RunningPlatform.class)
class PartnerGuideIT {

    private static final Pattern FIRST_HOUR_BLOCK = Pattern.compile("(?m)^```sh first-hour\\n(.*?)^```$", Pattern.DOTALL);

    @TempDir
    Path home;

    @Test
    void theFirstPageOfTheGuideEndsWithAVerifiedItemApproved(RunningPlatform.Handle platform) throws Exception {
        List<String> blocks = firstHourBlocks(Files.readString(RunningPlatform.projectRoot().resolve("docs/partner-guide.md")));
        assertEquals(6, blocks.size(), "the first page's blocks: authenticate, webhook, member, request, approval, verification");

        Path stackHome = Files.createDirectories(home.resolve("stack"));
        DemoData.seed(platform.gateway(), platform.opsKey(), stackHome.resolve("demo.properties"));
        Files.writeString(stackHome.resolve("ops-api-key"), platform.opsKey() + "\n");
        String env = stackEnv(stackHome);
        assertTrue(env.contains("\nexport API_KEY=apx_"), env);

        Path webhookDir = Files.createDirectories(home.resolve("webhooks"));
        try (WebhookReceiver receiver = new WebhookReceiver((post, attempt) -> keep(webhookDir, post))) {
            StringBuilder script = new StringBuilder(env)
                    .append("export GATEWAY=").append(platform.gateway().toString().replaceAll("/$", "")).append('\n')
                    .append("export WEBHOOK_DIR=").append(webhookDir).append('\n')
                    .append("export WEBHOOK_URL=").append(receiver.url()).append('\n');
            blocks.forEach(block -> script.append(block).append('\n'));
            script.append("printf '\\nguide: WEBHOOK_SECRET=%s REQUEST_ID=%s\\n' \"$WEBHOOK_SECRET\" \"$REQUEST_ID\"\n");
            String output = bash(script.toString());

            Matcher kept = Pattern.compile("guide: WEBHOOK_SECRET=([0-9a-f]{64}) REQUEST_ID=([0-9a-f-]{36})").matcher(output);
            assertTrue(kept.find(), output);
            String secret = kept.group(1);
            String requestId = kept.group(2);
            // The Authenticate block's refusals, exactly as the guide says them.
            assertTrue(output.contains("{\"error\":\"API Key missing\"}"), output);
            assertTrue(output.contains("{\"error\":\"Invalid API Key\"}"), output);
            assertTrue(output.contains("\"secretSet\":true"), output);

            List<Received> approved = receiver.ofEvent("item.approved").stream()
                    .filter(post -> requestId.equals(post.json().path("requestId").asText())).toList();
            assertEquals(1, approved.size(), output);
            Received delivery = approved.get(0);
            WebhookReceiver.assertSigned(delivery, secret);
            assertTrue(output.contains("\nverified item.approved " + delivery.headers().get("x-webhook-id") + "\n"), output);
            assertFalse(output.contains("NOT verified"), output);
        }
    }

    /**
     * The self-service webhook calls the guide uses, through the gateway as a partner makes them (each answer
     * held to the partner document by the contract check): the secret once, on the first URL; the URL rules;
     * rotation; 409 before any URL.
     */
    @Test
    void thePartnersWebhookSettingsAnswerThroughTheGatewayAsDocumented(RunningPlatform.Handle platform) {
        String apiKey = given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey())
                .contentType(ContentType.JSON).body(Map.of("name", "Guide E2E " + UUID.randomUUID()))
                .post("/ops/v1/partners").then().statusCode(201).extract().path("apiKey");
        RequestSpecification partner = given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey)
                .contentType(ContentType.JSON);
        String url = "http://127.0.0.1:9/hooks";

        given().spec(partner).get("/v1/webhook").then().statusCode(200).body(equalTo("{\"url\":null,\"secretSet\":false}"));
        given().spec(partner).post("/v1/webhook/secret/rotate").then().statusCode(409)
                .body(equalTo("{\"error\":\"No webhook URL configured\"}"));
        String secret = given().spec(partner).body(Map.of("url", url)).put("/v1/webhook").then().statusCode(200)
                .body("url", equalTo(url)).body("secret", matchesPattern("[0-9a-f]{64}")).extract().path("secret");
        given().spec(partner).body(Map.of("url", url)).put("/v1/webhook").then().statusCode(200)
                .body(equalTo("{\"url\":\"" + url + "\"}"));
        given().spec(partner).body(Map.of("url", "ftp://files.partner.example/x")).put("/v1/webhook").then().statusCode(400)
                .body(equalTo("{\"error\":[{\"code\":\"invalid_string\",\"validation\":\"url\",\"path\":[\"url\"],"
                        + "\"message\":\"Invalid url\"}]}"));
        given().spec(partner).get("/v1/webhook").then().statusCode(200)
                .body(equalTo("{\"url\":\"" + url + "\",\"secretSet\":true}"));
        String rotated = given().spec(partner).post("/v1/webhook/secret/rotate").then().statusCode(200)
                .body("secret", matchesPattern("[0-9a-f]{64}")).extract().path("secret");
        assertNotEquals(secret, rotated);
        given().baseUri(platform.gateway().toString()).get("/v1/webhook").then().statusCode(401)
                .body(equalTo("{\"error\":\"API Key missing\"}"));
    }

    /** The {@code ```sh first-hour} blocks of the guide's first page (before "## Verify a webhook"), in order. */
    static List<String> firstHourBlocks(String guide) {
        int end = guide.indexOf("\n## Verify a webhook");
        assertTrue(end > 0, "the guide has no \"Verify a webhook\" section");
        Matcher block = FIRST_HOUR_BLOCK.matcher(guide.substring(0, end));
        List<String> blocks = new ArrayList<>();
        while (block.find()) {
            blocks.add(block.group(1));
        }
        return blocks;
    }

    /** A delivery kept as the guide's receiver keeps it: the body last, so a body file means a whole delivery. */
    private static int keep(Path dir, Received post) {
        String id = post.headers().get("x-webhook-id");
        try {
            Files.writeString(dir.resolve(id + ".timestamp"), post.headers().get("x-webhook-timestamp"));
            Files.writeString(dir.resolve(id + ".signature"), post.headers().get("x-webhook-signature"));
            Files.write(dir.resolve(id + ".body"), post.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return 200;
    }

    /** What {@code ./stack env} prints for a stack home (the script's own command; it starts nothing). */
    private static String stackEnv(Path stackHome) throws Exception {
        Path root = RunningPlatform.projectRoot();
        ProcessBuilder builder = new ProcessBuilder(root.resolve("stack").toString(), "env").directory(root.toFile())
                .redirectErrorStream(true);
        builder.environment().put("STACK_HOME", stackHome.toString());
        builder.environment().remove("OPS_API_KEY");
        return run(builder, Duration.ofSeconds(30));
    }

    private String bash(String script) throws Exception {
        Path file = home.resolve("first-hour.sh");
        Files.writeString(file, script);
        ProcessBuilder builder = new ProcessBuilder("bash", file.toString()).directory(home.toFile()).redirectErrorStream(true);
        Map<String, String> environment = builder.environment();
        List.of("GATEWAY", "API_KEY", "OPS_KEY", "PARTNER_ID", "WEBHOOK_URL", "WEBHOOK_DIR", "WEBHOOK_SECRET").forEach(environment::remove);
        return run(builder, Duration.ofSeconds(120));
    }

    private static String run(ProcessBuilder builder, Duration timeout) throws Exception {
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("did not finish in " + timeout + ":\n" + new String(output, StandardCharsets.UTF_8));
        }
        String text = new String(output, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), text);
        return text;
    }
}
