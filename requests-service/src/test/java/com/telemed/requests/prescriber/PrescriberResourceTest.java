package com.telemed.requests.prescriber;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.requests.FakeNeighboursResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.Test;

/** operations-api.md "Prescribers", against the real database. */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class PrescriberResourceTest {

    private static final String UUID_V4 = "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$";
    private static final String TIMESTAMP = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$";

    /** A fresh address per test: the database is shared by every test class of the run. */
    private static String uniqueEmail() {
        return "dr.grey+" + UUID.randomUUID() + "@example.com";
    }

    private static Response post(Object body) {
        return given().contentType("application/json").body(body).when().post("/ops/v1/prescribers");
    }

    private static Map<String, Object> created(String name, String email) {
        return post(Map.of("name", name, "email", email)).then().statusCode(201).extract().jsonPath().getMap("prescriber");
    }

    private static Map<String, Object> issue(String code, Map<String, Object> details, String path, String message) {
        Map<String, Object> issue = new LinkedHashMap<>();
        issue.put("code", code);
        issue.putAll(details);
        issue.put("path", List.of(path));
        issue.put("message", message);
        return issue;
    }

    private static long rowsWithEmail(String email) {
        return ServiceDatabase.count("SELECT count(*) FROM prescribers WHERE lower(email) = lower(?)", email);
    }

    // --- create ---

    @Test
    void createAnswers201WithExactlyTheContractFields() {
        String email = "Dr.Meredith.Grey+" + UUID.randomUUID() + "@Example.com";
        Response response = post(Map.of("name", "Meredith Grey", "email", email));

        response.then().statusCode(201).contentType("application/json");
        Map<String, Object> body = response.jsonPath().getMap("");
        assertEquals(Set.of("prescriber"), body.keySet());
        Map<String, Object> prescriber = response.jsonPath().getMap("prescriber");
        assertEquals(List.of("id", "name", "email", "createdAt"), new ArrayList<>(prescriber.keySet()));
        assertEquals("Meredith Grey", prescriber.get("name"));
        assertEquals(email, prescriber.get("email"), "email is stored and answered exactly as given");
        assertTrue(((String) prescriber.get("id")).matches(UUID_V4), "id is a UUID v4: " + prescriber.get("id"));
        assertTrue(((String) prescriber.get("createdAt")).matches(TIMESTAMP), "createdAt: " + prescriber.get("createdAt"));
    }

    @Test
    void createIgnoresUnknownFields() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", "Cristina Yang");
        body.put("email", uniqueEmail());
        body.put("role", "admin");
        Map<String, Object> prescriber = post(body).then().statusCode(201).extract().jsonPath().getMap("prescriber");
        assertEquals(Set.of("id", "name", "email", "createdAt"), prescriber.keySet());
    }

    // --- read ---

    @Test
    void getAnswersTheStoredPrescriberUnchanged() {
        Map<String, Object> prescriber = created("Miranda Bailey", uniqueEmail());

        given().when().get("/ops/v1/prescribers/" + prescriber.get("id"))
                .then().statusCode(200).contentType("application/json")
                .body("", equalTo(Map.of("prescriber", prescriber)));
    }

    @Test
    void getAcceptsAnUppercaseId() {
        Map<String, Object> prescriber = created("Richard Webber", uniqueEmail());

        given().when().get("/ops/v1/prescribers/" + ((String) prescriber.get("id")).toUpperCase())
                .then().statusCode(200).body("", equalTo(Map.of("prescriber", prescriber)));
    }

    @Test
    void getUnknownIdIs404() {
        given().when().get("/ops/v1/prescribers/" + UUID.randomUUID())
                .then().statusCode(404).contentType("application/json")
                .body("", equalTo(Map.of("error", "Prescriber not found")));
    }

    /** Issue #38: a prescriber's name is shown in conversations and mails, one line each; a control character is refused. */
    @Test
    void aNameWithALineBreakIsRefusedAndNothingStored() {
        String email = uniqueEmail();
        post(Map.of("name", "Dr. Grey\nBcc: x@evil.example", "email", email)).then().statusCode(400).contentType("application/json")
                .body("error", equalTo(List.of(issue("custom", Map.of(), "name", "Invalid character"))));
        assertEquals(0, rowsWithEmail(email));
    }

    @Test
    void getMalformedIdIs404() {
        for (String id : List.of("not-a-uuid", "1-2-3-4-5", "123", UUID.randomUUID() + "0")) {
            given().when().get("/ops/v1/prescribers/" + id)
                    .then().statusCode(404).contentType("application/json")
                    .body("", equalTo(Map.of("error", "Prescriber not found")));
        }
    }

    @Test
    void internalReadAnswersTheSamePrescriber() {
        Map<String, Object> prescriber = created("Derek Shepherd", uniqueEmail());

        given().when().get("/internal/prescribers/" + prescriber.get("id"))
                .then().statusCode(200).contentType("application/json")
                .body("", equalTo(Map.of("prescriber", prescriber)));
    }

    @Test
    void internalReadOfUnknownOrMalformedIdIs404() {
        for (String id : List.of(UUID.randomUUID().toString(), "not-a-uuid")) {
            given().when().get("/internal/prescribers/" + id)
                    .then().statusCode(404).contentType("application/json")
                    .body("", equalTo(Map.of("error", "Prescriber not found")));
        }
    }

    // --- validation ---

    @Test
    void missingFieldsAreBothRequired() {
        post("{}").then().statusCode(400).contentType("application/json")
                .body("", equalTo(Map.of("error", List.of(
                        issue("invalid_type", Map.of("expected", "string", "received", "undefined"), "name", "Required"),
                        issue("invalid_type", Map.of("expected", "string", "received", "undefined"), "email", "Required")))));
    }

    @Test
    void emptyBodyReadsAsAnEmptyObject() {
        given().contentType("application/json").when().post("/ops/v1/prescribers")
                .then().statusCode(400)
                .body("error.message", equalTo(List.of("Required", "Required")))
                .body("error.path", equalTo(List.of(List.of("name"), List.of("email"))));
    }

    @Test
    void emptyNameAndBadEmailAreReportedTogether() {
        post(Map.of("name", "", "email", "not-an-email")).then().statusCode(400)
                .body("", equalTo(Map.of("error", List.of(
                        issue("too_small", Map.of("minimum", 1, "type", "string", "inclusive", true, "exact", false),
                                "name", "String must contain at least 1 character(s)"),
                        issue("invalid_string", Map.of("validation", "email"), "email", "Invalid email")))));
    }

    @Test
    void wrongTypesAreReportedZodStyle() {
        post("{\"name\": 42, \"email\": null}").then().statusCode(400)
                .body("", equalTo(Map.of("error", List.of(
                        issue("invalid_type", Map.of("expected", "string", "received", "number"), "name",
                                "Expected string, received number"),
                        issue("invalid_type", Map.of("expected", "string", "received", "null"), "email",
                                "Expected string, received null")))));
    }

    @Test
    void oneBadFieldIsOneIssue() {
        post(Map.of("name", "Alex Karev", "email", "karev@")).then().statusCode(400)
                .body("error.size()", equalTo(1))
                .body("error[0]", equalTo(issue("invalid_string", Map.of("validation", "email"), "email", "Invalid email")));
    }

    @Test
    void invalidJsonIs400() {
        post("{\"name\": \"Owen Hunt\", ").then().statusCode(400).contentType("application/json")
                .body("", equalTo(Map.of("error", "Invalid JSON")));
    }

    @Test
    void nonJsonContentTypeIs415() {
        given().contentType("text/plain").body("name=Owen").when().post("/ops/v1/prescribers")
                .then().statusCode(415).body("", equalTo(Map.of("error", "Unsupported Media Type")));
    }

    // --- one prescriber per email ---

    @Test
    void sameEmailInAnotherCaseIsRejected() throws Exception {
        String email = uniqueEmail();
        Map<String, Object> first = created("Addison Montgomery", email);

        post(Map.of("name", "Someone Else", "email", email.toUpperCase()))
                .then().statusCode(400).contentType("application/json")
                .body("", equalTo(Map.of("error", "Prescriber with this email already exists")));

        assertEquals(1, rowsWithEmail(email));
        given().when().get("/ops/v1/prescribers/" + first.get("id"))
                .then().statusCode(200).body("", equalTo(Map.of("prescriber", first)));
    }

    @Test
    void rejectedDuplicateLeavesTheEmailOutOfTheLog() {
        String email = uniqueEmail();
        created("Lexie Grey", email);
        List<String> lines = new CopyOnWriteArrayList<>();
        Formatter formatter = new SimpleFormatter();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(formatter.formatMessage(record) + " " + record.getThrown());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger root = Logger.getLogger("");
        root.addHandler(capture);
        try {
            post(Map.of("name", "Lexie Grey", "email", email)).then().statusCode(400);
        } finally {
            root.removeHandler(capture);
        }
        String local = email.substring(0, email.indexOf('@')).toLowerCase();
        assertTrue(lines.stream().noneMatch(line -> line.toLowerCase().contains(local)), "email logged: " + lines);
    }

    @Test
    void sameNameWithAnotherEmailIsAnotherPrescriber() {
        Map<String, Object> first = created("Jackson Avery", uniqueEmail());
        Map<String, Object> second = created("Jackson Avery", uniqueEmail());
        assertTrue(!first.get("id").equals(second.get("id")));
    }

    @Test
    void concurrentCreatesWithOneEmailMakeExactlyOnePrescriber() throws Exception {
        String email = uniqueEmail();
        int callers = 10;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Response>> calls = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                // Each caller varies the case, so the race is decided by lower(email), not byte equality.
                String variant = i % 2 == 0 ? email : email.toUpperCase();
                String name = "Caller " + i;
                Callable<Response> call = () -> {
                    start.await();
                    return post(Map.of("name", name, "email", variant));
                };
                calls.add(pool.submit(call));
            }
            start.countDown();

            int created = 0;
            int rejected = 0;
            for (Future<Response> call : calls) {
                Response response = call.get(60, TimeUnit.SECONDS);
                if (response.statusCode() == 201) {
                    created++;
                } else {
                    assertEquals(400, response.statusCode(), "loser answers 400, never 500: " + response.asString());
                    assertEquals("Prescriber with this email already exists", response.jsonPath().getString("error"));
                    rejected++;
                }
            }
            assertEquals(1, created);
            assertEquals(callers - 1, rejected);
            assertEquals(1, rowsWithEmail(email));
        } finally {
            pool.shutdownNow();
        }
    }
}
