package com.telemed.members.member;

import static com.telemed.members.member.MemberFixtures.create;
import static com.telemed.members.member.MemberFixtures.memberBody;
import static com.telemed.members.member.MemberFixtures.newPartner;
import static com.telemed.members.member.MemberFixtures.post;
import static com.telemed.members.member.MemberFixtures.put;
import static com.telemed.testkit.http.Refusals.assertRefused;
import static com.telemed.testkit.http.Refusals.invalidCharacter;
import static com.telemed.testkit.http.Refusals.tooLong;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.telemed.members.FakeRequestsServiceResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Input that used to answer 500 (issue 13): text PostgreSQL cannot store, and strings longer than
 * a column's index entry can hold. Each is a 400 issue array, writes nothing and answers at once.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class MemberInputTest {

    private static final Duration FAST = Duration.ofSeconds(5);

    /** The partner's member rows as stored, one line each: what a refused call must leave alone. */
    private static List<String> rowsOf(String partnerId) {
        return ServiceDatabase.texts("SELECT m::text FROM members m WHERE partner_id = ? ORDER BY created_at, id", partnerId);
    }

    @Test
    void anUpdateWithUnstorableTextIsOneIssuePerStringAndChangesNothing() {
        String partnerId = newPartner();
        String id = create(partnerId, "Ada", "Lovelace", "ada@example.com");
        List<String> before = rowsOf(partnerId);

        Response response = assertTimeoutPreemptively(FAST, () -> put(partnerId, id, """
                {"firstName": "A\\u0000da", "lastName": "\\ud800", "status": "paused",
                 "address": {"street1": "1 Main St\\u0000", "city": "Springfield", "state": "CA", "zipCode": "90210"}}"""));

        assertRefused(response, invalidCharacter("[\"firstName\"]"), invalidCharacter("[\"lastName\"]"),
                invalidCharacter("[\"address\",\"street1\"]"));
        assertEquals(before, rowsOf(partnerId));
        assertEquals(List.of(), MemberFixtures.auditOf(id), "the valid status in the same body is not applied");
    }

    @Test
    void aCreateWithUnstorableTextStoresNoMember() {
        String partnerId = newPartner();
        assertRefused(post(partnerId, memberBody("Ada", "Love\\udc00lace", "ada@example.com")),
                invalidCharacter("[\"lastName\"]"));
        assertEquals(List.of(), rowsOf(partnerId));
    }

    /**
     * Issue #38: a name goes into the Subject of the prescriber's mail, where a line break starts a
     * header of its own (a Reply-To that takes the prescriber's answer elsewhere). Control
     * characters and line separators in a name are refused as unstorable text is; other Unicode is
     * welcome.
     */
    @Test
    void namesWithControlCharactersOrLineBreaksAreRefusedAndWriteNothing() {
        String partnerId = newPartner();
        assertRefused(post(partnerId, memberBody("Ann\\nReply-To: x@evil.example", "Lee\\u0007", "ann@example.com")),
                invalidCharacter("[\"firstName\"]"), invalidCharacter("[\"lastName\"]"));
        assertEquals(List.of(), rowsOf(partnerId));

        String id = create(partnerId, "Zo\u00eb\u0301", "O'Brien-\u0141ukasz \u65e5\u672c", "zoe@example.com");
        List<String> before = rowsOf(partnerId);
        assertRefused(put(partnerId, id, """
                {"firstName": "Ann\\r\\nBcc: x@evil.example", "lastName": "L\\u2028ee"}"""),
                invalidCharacter("[\"firstName\"]"), invalidCharacter("[\"lastName\"]"));
        assertRefused(put(partnerId, id, "{\"firstName\": \"Ann\\tLee\", \"lastName\": \"\\u0085\"}"),
                invalidCharacter("[\"firstName\"]"), invalidCharacter("[\"lastName\"]"));
        assertEquals(before, rowsOf(partnerId));
    }

    @Test
    void aSearchWithUnstorableTextIsAnIssueUnderItsName() {
        String partnerId = newPartner();
        create(partnerId, "Ada", "Lovelace", "ada@example.com");
        Response response = assertTimeoutPreemptively(FAST, () -> given().header("X-Partner-Id", partnerId)
                .urlEncodingEnabled(false).get("/v1/members?search=%00"));
        assertRefused(response, invalidCharacter("[\"search\"]"));
    }

    @Test
    void stringsLongerThanTheirIndexEntriesCanHoldAreTooBig() {
        String partnerId = newPartner();
        String email = "a".repeat(3000) + "@example.com";
        String body = """
                {"firstName": "%s", "lastName": "%s", "email": "%s", "phone": "%s", "dateOfBirth": "1990-04-01",
                 "state": "CA", "address": {"street1": "%s", "street2": "%s", "city": "%s", "state": "CA",
                 "zipCode": "90210"}}""".formatted("F".repeat(101), "L".repeat(3000), email, "5".repeat(51),
                "s".repeat(201), "t".repeat(201), "c".repeat(201));

        Response response = assertTimeoutPreemptively(FAST, () -> post(partnerId, body));

        assertRefused(response, tooLong("[\"firstName\"]", 100), tooLong("[\"lastName\"]", 100),
                tooLong("[\"email\"]", 254), tooLong("[\"phone\"]", 50), tooLong("[\"address\",\"street1\"]", 200),
                tooLong("[\"address\",\"street2\"]", 200), tooLong("[\"address\",\"city\"]", 200));
        assertEquals(List.of(), rowsOf(partnerId));
    }

    @Test
    void theLongestAcceptedValuesAreStoredAndFound() {
        String partnerId = newPartner();
        String email = "e".repeat(242) + "@example.com";
        String id = create(partnerId, memberBody("\u00e9".repeat(100), "\ud83d\ude00".repeat(50), email));
        given().header("X-Partner-Id", partnerId).queryParam("search", email).get("/v1/members")
                .then().statusCode(200).body("members.id", org.hamcrest.Matchers.equalTo(List.of(id)));
        String id2 = put(partnerId, id, "{\"lastName\": \"" + "L".repeat(100) + "\"}").then().statusCode(200)
                .extract().path("member.id");
        assertEquals(id, id2);
    }

    /**
     * "Exactly two characters" as Zod counts them (UTF-16 code units): one character outside the
     * Basic Multilingual Plane is two, so it is a valid state, stored and read back (V3's check
     * counted code points and answered 500; found by the e2e bad-input property).
     */
    @Test
    void aStateOfOneSupplementaryCharacterIsTwoCharactersAsValidated() {
        String partnerId = newPartner();
        String id = create(partnerId, "Ada", "Lovelace", "ada@example.com");
        put(partnerId, id, """
                {"state": "\ud83d\ude00",
                 "address": {"street1": "1 Main St", "city": "Springfield", "state": "\udbff\udfff", "zipCode": "90210"}}""")
                .then().statusCode(200)
                .body("member.state", org.hamcrest.Matchers.equalTo("\ud83d\ude00"))
                .body("member.address.state", org.hamcrest.Matchers.equalTo("\udbff\udfff"));
        String created = create(partnerId, """
                {"firstName": "Bo", "lastName": "Ek", "email": "bo@example.com", "dateOfBirth": "1990-04-01", "state": "\ud83d\ude00",
                 "address": {"street1": "1 Main St", "city": "Springfield", "state": "C\u00e9", "zipCode": "90210"}}""");
        MemberFixtures.get(partnerId, created).then().statusCode(200)
                .body("state", org.hamcrest.Matchers.equalTo("\ud83d\ude00"))
                .body("address.state", org.hamcrest.Matchers.equalTo("C\u00e9"));
        // One supplementary character and one more is three: refused by the validation, as before.
        List<String> before = rowsOf(partnerId);
        put(partnerId, id, "{\"state\": \"\\ud83d\\ude00A\"}").then().statusCode(400);
        assertEquals(before, rowsOf(partnerId));
    }

    @Test
    void anUpdateOrSearchPastTheBoundsIsTooBig() {
        String partnerId = newPartner();
        String id = create(partnerId, "Ada", "Lovelace", "ada@example.com");
        List<String> before = rowsOf(partnerId);
        assertRefused(put(partnerId, id, "{\"email\": \"" + "x".repeat(250) + "@example.com\"}"),
                tooLong("[\"email\"]", 254));
        assertEquals(before, rowsOf(partnerId));
        assertRefused(given().header("X-Partner-Id", partnerId).queryParam("search", "s".repeat(255)).get("/v1/members"),
                tooLong("[\"search\"]", 254));
    }
}
