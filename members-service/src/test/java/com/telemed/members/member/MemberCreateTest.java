package com.telemed.members.member;

import static com.telemed.members.member.MemberFixtures.TIMESTAMP;
import static com.telemed.members.member.MemberFixtures.newPartner;
import static com.telemed.members.member.MemberFixtures.post;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.members.FakeRequestsServiceResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class MemberCreateTest {

    private static final Set<String> CREATE_FIELDS = Set.of("id", "firstName", "lastName", "email", "phone",
            "dateOfBirth", "state", "address", "shippingAddress", "partnerId", "status", "createdAt", "updatedAt");

    private static Map<String, Object> issue(String code, List<Object> path, String message, Object... details) {
        Map<String, Object> issue = new LinkedHashMap<>();
        issue.put("code", code);
        for (int i = 0; i < details.length; i += 2) {
            issue.put((String) details[i], details[i + 1]);
        }
        issue.put("path", path);
        issue.put("message", message);
        return issue;
    }

    private static Map<String, Object> required(String expected, Object... path) {
        return issue("invalid_type", List.of(path), "Required", "expected", expected, "received", "undefined");
    }

    private static Map<String, Object> tooShort(Object... path) {
        return issue("too_small", List.of(path), "String must contain at least 1 character(s)",
                "minimum", 1, "type", "string", "inclusive", true, "exact", false);
    }

    private static Map<String, Object> regex(Object... path) {
        return issue("invalid_string", List.of(path), "Invalid", "validation", "regex");
    }

    @Test
    void needsThePartnerTheGatewayAuthenticated() {
        given().contentType(ContentType.JSON).body(MemberFixtures.memberBody("A", "B", "a@example.com"))
                .when().post("/v1/members")
                .then().statusCode(401).contentType(ContentType.JSON).body("error", equalTo("API Key missing"));
    }

    @Test
    void createsAnActiveMemberAndEchoesEveryFieldWithGenderAndPartner() {
        String partnerId = newPartner();
        Map<String, Object> body = post(partnerId, """
                {"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com", "phone": "+1 555 0100",
                 "dateOfBirth": "1815-12-10", "state": "NY", "gender": "f", "status": "cancelled", "unknown": 1,
                 "address": {"street1": "1 Main St", "street2": "Apt 2", "city": "Albany", "state": "NY",
                             "zipCode": "12207-1234"},
                 "shippingAddress": {"street1": "9 Dock Rd", "city": "Buffalo", "state": "NY", "zipCode": "14201"}}""")
                .then().statusCode(201).contentType(ContentType.JSON).extract().as(Map.class);
        assertEquals(Set.of("success", "member"), body.keySet());
        assertEquals(true, body.get("success"));
        @SuppressWarnings("unchecked")
        Map<String, Object> member = (Map<String, Object>) body.get("member");
        Set<String> withGender = new java.util.HashSet<>(CREATE_FIELDS);
        withGender.add("gender");
        assertEquals(withGender, member.keySet());
        assertTrue(((String) member.get("id")).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"));
        assertEquals("Ada", member.get("firstName"));
        assertEquals("Lovelace", member.get("lastName"));
        assertEquals("ada@example.com", member.get("email"));
        assertEquals("+1 555 0100", member.get("phone"));
        assertEquals("1815-12-10", member.get("dateOfBirth"));
        assertEquals("NY", member.get("state"));
        assertEquals("f", member.get("gender"));
        assertEquals(partnerId, member.get("partnerId"));
        // Members start active; status is not a create field.
        assertEquals("active", member.get("status"));
        assertEquals(Map.of("street1", "1 Main St", "street2", "Apt 2", "city", "Albany", "state", "NY",
                "zipCode", "12207-1234"), member.get("address"));
        Map<String, Object> shipping = new HashMap<>();
        shipping.put("street1", "9 Dock Rd");
        shipping.put("street2", null);
        shipping.put("city", "Buffalo");
        shipping.put("state", "NY");
        shipping.put("zipCode", "14201");
        assertEquals(shipping, member.get("shippingAddress"));
        assertTrue(((String) member.get("createdAt")).matches(TIMESTAMP), (String) member.get("createdAt"));
        assertEquals(member.get("createdAt"), member.get("updatedAt"));
    }

    @Test
    void leavesOptionalFieldsNullAndGenderOutWhenNotSent() {
        Map<String, Object> member = post(newPartner(), MemberFixtures.memberBody("Bo", "Diddley", "bo@example.com"))
                .then().statusCode(201).extract().path("member");
        assertEquals(CREATE_FIELDS, member.keySet());
        assertFalse(member.containsKey("gender"));
        assertNull(member.get("phone"));
        assertNull(member.get("shippingAddress"));
        @SuppressWarnings("unchecked")
        Map<String, Object> address = (Map<String, Object>) member.get("address");
        assertEquals(MemberFixtures.ADDRESS_FIELDS, address.keySet());
        assertNull(address.get("street2"));
    }

    @Test
    void twoCallsWithOneEmailCreateTwoMembers() {
        String partnerId = newPartner();
        String first = MemberFixtures.create(partnerId, "Same", "Person", "same@example.com");
        String second = MemberFixtures.create(partnerId, "Same", "Person", "same@example.com");
        assertFalse(first.equals(second));
    }

    @Test
    void reportsEveryInvalidFieldAtOnce() {
        List<Map<String, Object>> issues = post(newPartner(), """
                {"firstName": "", "email": "not-an-email", "phone": 5, "dateOfBirth": "1990/01/01",
                 "state": "CAL", "gender": "x",
                 "address": {"street1": "", "street2": 7, "zipCode": "1234"},
                 "shippingAddress": {"street1": "9 Dock Rd", "city": "Buffalo", "state": "N", "zipCode": "123456"}}""")
                .then().statusCode(400).contentType(ContentType.JSON).extract().path("error");
        assertEquals(List.of(
                tooShort("firstName"),
                required("string", "lastName"),
                issue("invalid_string", List.of("email"), "Invalid email", "validation", "email"),
                issue("invalid_type", List.of("phone"), "Expected string, received number",
                        "expected", "string", "received", "number"),
                regex("dateOfBirth"),
                issue("too_big", List.of("state"), "String must contain exactly 2 character(s)",
                        "maximum", 2, "type", "string", "inclusive", true, "exact", true),
                issue("invalid_enum_value", List.of("gender"),
                        "Invalid enum value. Expected 'm' | 'f' | 'a' | 'u', received 'x'",
                        "received", "x", "options", List.of("m", "f", "a", "u")),
                tooShort("address", "street1"),
                issue("invalid_type", List.of("address", "street2"), "Expected string, received number",
                        "expected", "string", "received", "number"),
                required("string", "address", "city"),
                required("string", "address", "state"),
                regex("address", "zipCode"),
                issue("too_small", List.of("shippingAddress", "state"), "String must contain exactly 2 character(s)",
                        "minimum", 2, "type", "string", "inclusive", true, "exact", true),
                regex("shippingAddress", "zipCode")), issues);
    }

    @Test
    void requiresTheContractsRequiredFields() {
        List<Map<String, Object>> issues = post(newPartner(), "{}")
                .then().statusCode(400).extract().path("error");
        assertEquals(List.of(required("string", "firstName"), required("string", "lastName"),
                required("string", "email"), required("string", "dateOfBirth"), required("string", "state"),
                required("object", "address")), issues);
    }

    @Test
    void rejectsANullAddressAndANonObjectBody() {
        List<Map<String, Object>> issues = post(newPartner(), """
                {"firstName": "A", "lastName": "B", "email": "a@example.com", "dateOfBirth": "2000-01-01",
                 "state": "CA", "address": null}""").then().statusCode(400).extract().path("error");
        assertEquals(List.of(issue("invalid_type", List.of("address"), "Expected object, received null",
                "expected", "object", "received", "null")), issues);
        post(newPartner(), "[]").then().statusCode(400)
                .body("error[0].code", equalTo("invalid_type"))
                .body("error[0].expected", equalTo("object"))
                .body("error[0].received", equalTo("array"));
        post(newPartner(), "{not json").then().statusCode(400).body("error", equalTo("Invalid JSON"));
    }
}
