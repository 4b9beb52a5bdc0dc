package com.telemed.requests.input;

import static com.telemed.testkit.http.Refusals.assertRefused;
import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static com.telemed.testkit.http.Refusals.custom;
import static com.telemed.testkit.http.Refusals.invalidCharacter;
import static com.telemed.testkit.http.Refusals.invalidDatetime;
import static com.telemed.testkit.http.Refusals.tooBig;
import static com.telemed.testkit.http.Refusals.tooLong;
import static com.telemed.testkit.http.Refusals.tooManyDecimals;
import static com.telemed.testkit.http.Refusals.tooSmall;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.telemed.requests.PartnerWithDrugAndMember;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /v1/requests} input that used to answer 500 or store nonsense (issue 13): unstorable
 * text, dates no column holds, numbers past their columns, keys past their index. Each is a 400
 * issue array, asks no other service, writes nothing and answers at once.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class RequestInputTest extends PartnerWithDrugAndMember {

    @Override
    protected List<String> dosages() {
        return List.of("0.25mg");
    }

    private static final Duration FAST = Duration.ofSeconds(5);

    @BeforeEach
    void setUp() {
        neighbours.clearCalls();
    }

    private RequestSpecification as() {
        return given().header("X-Partner-Id", partner);
    }

    private Response post(String body) {
        return as().contentType("application/json").body(body).post("/v1/requests");
    }

    private Response fast(Supplier<Response> call) {
        return assertTimeoutPreemptively(FAST, call::get);
    }

    private void assertNothingWritten() {
        assertEquals(0, count("SELECT count(*) FROM requests WHERE partner_id = ?", partner));
        assertEquals(List.of(), neighbours.calls(), "refused before members-service or catalogue-service is asked");
    }

    @Test
    void unstorableTextInCaseNotesAndTheInlineMemberIsOneIssueEach() {
        Response response = fast(() -> post("""
                {"member": {"firstName": "Ada\\ud800", "lastName": "Lovelace", "email": "ada@example.com",
                            "dateOfBirth": "1990-04-12", "state": "CA",
                            "address": {"street1": "1 Main St", "city": "Sacramento", "state": "CA", "zipCode": "95814"}},
                 "caseNotes": "BMI 31\\u0000", "items": [{"drugId": "%s", "requestedSku": "\\udfff"}]}""".formatted(drugId)));

        assertRefused(response, invalidCharacter("[\"member\",\"firstName\"]"), invalidCharacter("[\"caseNotes\"]"),
                invalidCharacter("[\"items\",0,\"requestedSku\"]"));
        assertNothingWritten();
    }

    /** Issue #38: the inline member's name goes into the prescriber's mail Subject; a line break there is refused. */
    @Test
    void controlCharactersInTheInlineMembersNameAreIssues() {
        Response response = fast(() -> post("""
                {"member": {"firstName": "Ada\\nReply-To: x@evil.example", "lastName": "Love\\u0085lace", "email": "ada@example.com",
                            "dateOfBirth": "1990-04-12", "state": "CA",
                            "address": {"street1": "1 Main St", "city": "Sacramento", "state": "CA", "zipCode": "95814"}},
                 "caseNotes": "BMI 31", "items": [{"drugId": "%s"}]}""".formatted(drugId)));

        assertRefused(response, invalidCharacter("[\"member\",\"firstName\"]"), invalidCharacter("[\"member\",\"lastName\"]"));
        assertNothingWritten();
    }

    @Test
    void numbersPastWhatTheColumnHoldsOrWithAnExplodingScaleAreIssues() {
        String body = """
                {"memberId": "%s", "caseNotes": "notes",
                 "items": [{"drugId": "%s", "requestedClinicalDose": {"value": %s, "unit": "mg"}}]}""";
        String path = "[\"items\",0,\"requestedClinicalDose\",\"value\"]";
        assertRefused(fast(() -> post(body.formatted(memberId, drugId, "1e200000"))), tooBig(path, 1_000_000));
        assertRefused(fast(() -> post(body.formatted(memberId, drugId, "1e-2147483647"))), tooManyDecimals(path));
        assertRefused(fast(() -> post(body.formatted(memberId, drugId, "-0.5"))), tooSmall(path, 0));
        assertNothingWritten();

        String created = post(body.formatted(memberId, drugId, "1000000.000001e0")).then().statusCode(400).extract().asString();
        assertEquals("{\"error\":[" + tooBig(path, 1_000_000) + "]}", created);
        post(body.formatted(memberId, drugId, "0.000001")).then().statusCode(201);
        post(body.formatted(memberId, drugId, "1e6")).then().statusCode(201);
    }

    @Test
    void aPharmacySendAtInAYearNoColumnHoldsIsAnInvalidDatetime() {
        String body = "{\"memberId\": \"%s\", \"caseNotes\": \"notes\", \"pharmacySendAt\": \"%s\"}";
        assertRefused(fast(() -> post(body.formatted(memberId, "+300000-01-01T00:00:00Z"))),
                invalidDatetime("[\"pharmacySendAt\"]"));
        assertRefused(fast(() -> post(body.formatted(memberId, "-300000-01-01T00:00:00Z"))),
                invalidDatetime("[\"pharmacySendAt\"]"));
        assertNothingWritten();
        post(body.formatted(memberId, "9999-12-31T23:59:59.999-18:00")).then().statusCode(201);
    }

    @Test
    void anIdempotencyKeyLongerThanItsIndexEntryIsTooBigInTheHeaderOrTheBody() {
        String body = "{\"memberId\": \"%s\", \"caseNotes\": \"notes\", \"idempotencyKey\": \"%s\"}";
        Response response = fast(() -> as().contentType("application/json").header("Idempotency-Key", "h".repeat(3000))
                .body(body.formatted(memberId, "b".repeat(3000))).post("/v1/requests"));
        assertRefused(response, tooLong("[\"Idempotency-Key\"]", 255), tooLong("[\"idempotencyKey\"]", 255));
        assertRefused(fast(() -> post(body.formatted(memberId, "\\u0000"))), invalidCharacter("[\"idempotencyKey\"]"));
        assertNothingWritten();

        String key = "k".repeat(254) + "\u00e9";
        String first = as().contentType("application/json; charset=UTF-8").header("Idempotency-Key", "k".repeat(255))
                .body(body.formatted(memberId, key)).post("/v1/requests").then().statusCode(201).extract().path("requestId");
        as().contentType("application/json").header("Idempotency-Key", "k".repeat(255))
                .body(body.formatted(memberId, "other")).post("/v1/requests")
                .then().statusCode(200).body("requestId", equalTo(first)).body("idempotentReplay", equalTo(true));
    }

    @Test
    void caseNotesAndFreeTextHaveTheirLengths() {
        String body = """
                {"memberId": "%s", "caseNotes": "%s",
                 "items": [{"drugId": "%s", "requestedSkuId": "%s", "dosage": "%s", "requestedSku": "%s",
                            "requestedClinicalDose": {"value": 1, "unit": "%s"}}]}""".formatted(memberId, "n".repeat(102_401),
                drugId, "s".repeat(129), "d".repeat(256), "r".repeat(501), "u".repeat(51));
        assertRefused(fast(() -> post(body)), tooLong("[\"items\",0,\"requestedSkuId\"]", 128),
                tooLong("[\"items\",0,\"dosage\"]", 255), tooLong("[\"items\",0,\"requestedSku\"]", 500),
                tooLong("[\"items\",0,\"requestedClinicalDose\",\"unit\"]", 50), tooLong("[\"caseNotes\"]", 102_400));
        assertNothingWritten();
    }

    /**
     * The seed bounds caseNotes only by the 100 KB body (issue #38: a 10,000-character cap refused the
     * pasted questionnaires a partner sent to the reference service): long notes are taken and read
     * back whole.
     */
    @Test
    void longCaseNotesAreTakenWholeUpToWhatABodyCarries() {
        for (int length : List.of(10_001, 60_000, 102_400)) {
            String notes = "Pasted intake questionnaire. ".repeat(length / 29 + 1).substring(0, length);
            String requestId = post("{\"memberId\": \"%s\", \"caseNotes\": \"%s\", \"items\": [{\"drugId\": \"%s\"}]}"
                    .formatted(memberId, notes, drugId)).then().statusCode(201).extract().path("requestId");
            as().get("/v1/requests/" + requestId).then().statusCode(200).body("caseNotes", equalTo(notes));
        }
    }

    @Test
    void listDatesThatParseButNoColumnHoldsAreInvalidDates() {
        for (String query : List.of("endDate=%2B999999999-12-31T23:59:59Z", "startDate=%2B300000-01-01",
                "startDate=-0001-01-01T00:00:00Z", "endDate=%2B10000-01-01")) {
            Response response = fast(() -> as().urlEncodingEnabled(false).get("/v1/requests?" + query));
            assertRefused(response, custom("[\"" + query.substring(0, query.indexOf('=')) + "\"]", "Invalid date"));
        }
        assertRefused(fast(() -> as().urlEncodingEnabled(false).get("/v1/requests?startDate=%00&status=pending")),
                invalidCharacter("[\"startDate\"]"));
        as().get("/v1/requests?startDate=0000-01-01&endDate=9999-12-31").then().statusCode(200)
                .body("pagination.total", equalTo(0));
        as().queryParam("startDate", "0000-01-01T00:00:00+18:00").queryParam("endDate", "9999-12-31T23:59:59-18:00")
                .queryParam("status", "pending").get("/v1/requests").then().statusCode(200).body("pagination.total", equalTo(0));
    }

    @Test
    void aCancelWithUnstorableTextOrAnOverlongReasonChangesNothing() {
        String requestId = post("{\"memberId\": \"%s\", \"caseNotes\": \"notes\", \"items\": [{\"drugId\": \"%s\"}]}"
                .formatted(memberId, drugId)).then().statusCode(201).extract().path("requestId");
        long history = count("SELECT count(*) FROM history_entries WHERE request_id = ?", UUID.fromString(requestId));
        assertRefused(fast(() -> as().contentType("application/json").body("{\"reason\": \"changed mind\\u0000\"}")
                .post("/v1/requests/" + requestId + "/cancel")), invalidCharacter("[\"reason\"]"));
        assertRefused(fast(() -> as().contentType("application/json").body("{\"reason\": \"" + "r".repeat(1001) + "\"}")
                .post("/v1/requests/" + requestId + "/cancel")), tooLong("[\"reason\"]", 1000));
        assertEquals(history, count("SELECT count(*) FROM history_entries WHERE request_id = ?", UUID.fromString(requestId)));
        as().get("/v1/requests/" + requestId).then().statusCode(200).body("lineItems[0].status", equalTo("pending"));
    }
}
