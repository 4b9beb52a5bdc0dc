package com.telemed.members.member;

import static com.telemed.members.member.MemberFixtures.PUT_FIELDS;
import static com.telemed.members.member.MemberFixtures.auditOf;
import static com.telemed.members.member.MemberFixtures.create;
import static com.telemed.members.member.MemberFixtures.get;
import static com.telemed.members.member.MemberFixtures.newPartner;
import static com.telemed.members.member.MemberFixtures.put;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.time.Milliseconds;
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
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class MemberUpdateTest {

    private static final String FULL = """
            {"firstName": "Linus", "lastName": "Pauling", "email": "linus@example.com", "phone": "555-0101",
             "dateOfBirth": "1901-02-28", "state": "OR", "gender": "m",
             "address": {"street1": "1 Home St", "street2": "Unit 5", "city": "Portland", "state": "OR",
                         "zipCode": "97201"},
             "shippingAddress": {"street1": "2 Ship St", "street2": "Dock 3", "city": "Salem", "state": "OR",
                                 "zipCode": "97301-0001"}}""";

    private static Map<String, Object> address(String street1, String street2, String city, String state, String zip) {
        Map<String, Object> address = new HashMap<>();
        address.put("street1", street1);
        address.put("street2", street2);
        address.put("city", city);
        address.put("state", state);
        address.put("zipCode", zip);
        return address;
    }

    private static void pause() {
        Milliseconds.awaitNext();
    }

    @Test
    void changesOnlyTheSentFieldsAndAnswersTheStoredMemberWithoutRequestsGenderOrPartner() {
        String partnerId = newPartner();
        Map<String, Object> before = MemberFixtures.post(partnerId, FULL).then().statusCode(201).extract().path("member");
        String id = (String) before.get("id");
        pause();

        Map<String, Object> body = put(partnerId, id, "{\"firstName\": \"Ava\", \"unknown\": true}")
                .then().statusCode(200).contentType(ContentType.JSON).extract().as(Map.class);
        assertEquals(Set.of("success", "member"), body.keySet());
        assertEquals(true, body.get("success"));
        @SuppressWarnings("unchecked")
        Map<String, Object> member = (Map<String, Object>) body.get("member");
        assertEquals(PUT_FIELDS, member.keySet());
        assertEquals("Ava", member.get("firstName"));
        for (String field : List.of("id", "lastName", "email", "phone", "dateOfBirth", "state", "status", "address",
                "shippingAddress", "createdAt")) {
            assertEquals(before.get(field), member.get(field), field);
        }
        assertNotEquals(before.get("updatedAt"), member.get("updatedAt"));
        assertTrue(((String) member.get("updatedAt")).compareTo((String) member.get("createdAt")) > 0);

        Map<String, Object> read = get(partnerId, id).then().statusCode(200).extract().as(Map.class);
        for (String field : PUT_FIELDS) {
            assertEquals(member.get(field), read.get(field), field);
        }
    }

    @Test
    void replacesTheAddressWholeAndClearsPhoneAndShippingAddressWithNull() {
        String partnerId = newPartner();
        String id = create(partnerId, FULL);

        Map<String, Object> member = put(partnerId, id, """
                {"lastName": "Pauling-Smith", "email": "lp@example.com", "dateOfBirth": "1901-03-01", "state": "WA",
                 "phone": null, "shippingAddress": null,
                 "address": {"street1": "10 New Rd", "city": "Seattle", "state": "WA", "zipCode": "98101"}}""")
                .then().statusCode(200).extract().path("member");
        assertEquals("Linus", member.get("firstName"));
        assertEquals("Pauling-Smith", member.get("lastName"));
        assertEquals("lp@example.com", member.get("email"));
        assertEquals("1901-03-01", member.get("dateOfBirth"));
        assertEquals("WA", member.get("state"));
        assertTrue(member.containsKey("phone"));
        assertNull(member.get("phone"));
        assertTrue(member.containsKey("shippingAddress"));
        assertNull(member.get("shippingAddress"));
        // street2 of the old address is gone: no merge.
        assertEquals(address("10 New Rd", null, "Seattle", "WA", "98101"), member.get("address"));

        Map<String, Object> read = get(partnerId, id).then().statusCode(200).extract().as(Map.class);
        assertNull(read.get("phone"));
        assertNull(read.get("shippingAddress"));
        assertEquals(address("10 New Rd", null, "Seattle", "WA", "98101"), read.get("address"));

        put(partnerId, id, """
                {"phone": "555-0199",
                 "shippingAddress": {"street1": "3 Port Ave", "city": "Tacoma", "state": "WA", "zipCode": "98402"}}""")
                .then().statusCode(200)
                .body("member.phone", equalTo("555-0199"))
                .body("member.shippingAddress", equalTo(address("3 Port Ave", null, "Tacoma", "WA", "98402")))
                .body("member.address", equalTo(address("10 New Rd", null, "Seattle", "WA", "98101")));
    }

    @Test
    void anEmptyBodyChangesNothing() {
        String partnerId = newPartner();
        Map<String, Object> before = MemberFixtures.post(partnerId, FULL).then().statusCode(201).extract().path("member");
        Map<String, Object> after = put(partnerId, (String) before.get("id"), "{}").then().statusCode(200)
                .extract().path("member");
        for (String field : List.of("firstName", "lastName", "email", "phone", "dateOfBirth", "state", "status",
                "address", "shippingAddress", "createdAt")) {
            assertEquals(before.get(field), after.get(field), field);
        }
    }

    @Test
    void reportsEveryInvalidFieldAtOnce() {
        String partnerId = newPartner();
        String id = create(partnerId, FULL);
        List<Map<String, Object>> issues = put(partnerId, id, """
                {"firstName": "", "email": "x@", "state": "O", "dateOfBirth": "01-02-1901", "status": "gone",
                 "address": {"street1": "1 A St"},
                 "shippingAddress": {"street1": "2 B St", "city": "C", "state": "OR", "zipCode": "9730"}}""")
                .then().statusCode(400).contentType(ContentType.JSON).extract().path("error");
        assertEquals(List.of(
                List.of("firstName"), List.of("email"), List.of("dateOfBirth"), List.of("state"),
                List.of("address", "city"), List.of("address", "state"), List.of("address", "zipCode"),
                List.of("shippingAddress", "zipCode"), List.of("status")),
                issues.stream().map(issue -> issue.get("path")).toList());
        assertEquals(List.of("too_small", "invalid_string", "invalid_string", "too_small", "invalid_type",
                "invalid_type", "invalid_type", "invalid_string", "invalid_enum_value"),
                issues.stream().map(issue -> issue.get("code")).toList());

        Map<String, Object> nullAddress = new LinkedHashMap<>();
        nullAddress.put("code", "invalid_type");
        nullAddress.put("expected", "object");
        nullAddress.put("received", "null");
        nullAddress.put("path", List.of("address"));
        nullAddress.put("message", "Expected object, received null");
        put(partnerId, id, "{\"address\": null}").then().statusCode(400).body("error", equalTo(List.of(nullAddress)));
        put(partnerId, id, "{\"firstName\": null}").then().statusCode(400)
                .body("error[0].path", equalTo(List.of("firstName")))
                .body("error[0].message", equalTo("Expected string, received null"));

        // Nothing was changed by the rejected calls.
        get(partnerId, id).then().statusCode(200).body("firstName", equalTo("Linus")).body("status", equalTo("active"));
    }

    @Test
    void answersNotFoundForAnotherPartnersUnknownOrMalformedIds() {
        String owner = newPartner();
        String id = create(owner, FULL);
        String partnerId = newPartner();
        for (String wrong : List.of(id, UUID.randomUUID().toString(), "nope")) {
            put(partnerId, wrong, "{\"firstName\": \"Mallory\", \"status\": \"cancelled\"}").then().statusCode(404)
                    .contentType(ContentType.JSON).body("error", equalTo("Member not found"));
        }
        get(owner, id).then().statusCode(200).body("firstName", equalTo("Linus")).body("status", equalTo("active"));
        assertEquals(List.of(), auditOf(id));
    }

    @Test
    void auditsAStatusChangeOnlyWhenTheStatusReallyChanges() {
        String partnerId = newPartner();
        String id = create(partnerId, FULL);
        assertEquals(List.of(), auditOf(id));

        put(partnerId, id, "{\"status\": \"active\"}").then().statusCode(200).body("member.status", equalTo("active"));
        assertEquals(List.of(), auditOf(id));

        put(partnerId, id, "{\"status\": \"paused\"}").then().statusCode(200).body("member.status", equalTo("paused"));
        assertEquals(List.of("active->paused@" + partnerId), auditOf(id));
        pause();

        put(partnerId, id, "{\"status\": \"paused\", \"firstName\": \"Lin\"}").then().statusCode(200);
        put(partnerId, id, "{\"lastName\": \"P\"}").then().statusCode(200).body("member.status", equalTo("paused"));
        assertEquals(List.of("active->paused@" + partnerId), auditOf(id));

        put(partnerId, id, "{\"status\": \"cancelled\"}").then().statusCode(200);
        pause();
        put(partnerId, id, "{\"status\": \"active\"}").then().statusCode(200);
        assertEquals(List.of("active->paused@" + partnerId, "paused->cancelled@" + partnerId,
                "cancelled->active@" + partnerId), auditOf(id));
        get(partnerId, id).then().statusCode(200).body("status", equalTo("active"));
    }
}
