package com.telemed.members.member;

import static com.telemed.members.member.MemberFixtures.READ_FIELDS;
import static com.telemed.members.member.MemberFixtures.create;
import static com.telemed.members.member.MemberFixtures.get;
import static com.telemed.members.member.MemberFixtures.ids;
import static com.telemed.members.member.MemberFixtures.list;
import static com.telemed.members.member.MemberFixtures.newPartner;
import static com.telemed.members.member.MemberFixtures.put;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.members.FakeRequestsServiceResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class MemberReadTest {

    private static Map<String, Object> pagination(int page, int limit, int total, int totalPages) {
        Map<String, Object> pagination = new LinkedHashMap<>();
        pagination.put("page", page);
        pagination.put("limit", limit);
        pagination.put("total", total);
        pagination.put("totalPages", totalPages);
        return pagination;
    }

    @Test
    void needsThePartnerTheGatewayAuthenticated() {
        given().when().get("/v1/members").then().statusCode(401).body("error", equalTo("API Key missing"));
        given().when().get("/v1/members/" + UUID.randomUUID()).then().statusCode(401)
                .body("error", equalTo("API Key missing"));
    }

    @Test
    void readsTheMemberAtTopLevelWithRequestsAndWithoutGenderOrPartner() {
        String partnerId = newPartner();
        Map<String, Object> created = MemberFixtures.post(partnerId, """
                {"firstName": "Grace", "lastName": "Hopper", "email": "grace@example.com", "dateOfBirth": "1906-12-09",
                 "state": "VA", "gender": "f", "phone": "555",
                 "address": {"street1": "1 Navy Way", "city": "Arlington", "state": "VA", "zipCode": "22201"}}""")
                .then().statusCode(201).extract().path("member");
        String id = (String) created.get("id");

        Map<String, Object> member = get(partnerId, id).then().statusCode(200).contentType(ContentType.JSON)
                .extract().as(Map.class);
        assertEquals(READ_FIELDS, member.keySet());
        for (String field : List.of("id", "firstName", "lastName", "email", "phone", "dateOfBirth", "state", "status",
                "address", "shippingAddress", "createdAt", "updatedAt")) {
            assertEquals(created.get(field), member.get(field), field);
        }
        assertEquals(List.of(), member.get("requests"));
    }

    @Test
    void answersNotFoundForAnotherPartnersUnknownOrMalformedIds() {
        String id = create(newPartner(), "Other", "Partner", "other@example.com");
        String partnerId = newPartner();
        for (String wrong : List.of(id, UUID.randomUUID().toString(), "not-a-uuid", "1-2-3-4-5")) {
            get(partnerId, wrong).then().statusCode(404).contentType(ContentType.JSON)
                    .body("error", equalTo("Member not found"));
        }
    }

    @Test
    void listsNewestFirstWithExactPaginationAndOnlyThePartnersMembers() {
        String partnerId = newPartner();
        String other = newPartner();
        create(other, "Not", "Mine", "not.mine@example.com");
        List<String> created = new java.util.ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            created.add(create(partnerId, "Member" + i, "Family", "member" + i + "@example.com"));
        }
        List<String> newestFirst = new java.util.ArrayList<>(created);
        java.util.Collections.reverse(newestFirst);

        Map<String, Object> page1 = list(partnerId, Map.of("limit", "2")).then().statusCode(200)
                .contentType(ContentType.JSON).extract().as(Map.class);
        assertEquals(java.util.Set.of("members", "pagination"), page1.keySet());
        assertEquals(pagination(1, 2, 5, 3), page1.get("pagination"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> members = (List<Map<String, Object>>) page1.get("members");
        assertEquals(newestFirst.subList(0, 2), members.stream().map(m -> m.get("id")).toList());
        for (Map<String, Object> member : members) {
            assertEquals(READ_FIELDS, member.keySet());
            assertEquals(List.of(), member.get("requests"));
        }

        assertEquals(newestFirst.subList(2, 4), ids(list(partnerId, Map.of("page", "2", "limit", "2"))));
        assertEquals(newestFirst.subList(4, 5), ids(list(partnerId, Map.of("page", "3", "limit", "2"))));
        list(partnerId, Map.of("page", "4", "limit", "2")).then().statusCode(200)
                .body("members", equalTo(List.of()))
                .body("pagination", equalTo(pagination(4, 2, 5, 3)));
        // A page so far past the end that page times limit overflows a long: still [] and the exact total.
        list(partnerId, Map.of("page", "9223372036854775807", "limit", "100")).then().statusCode(200)
                .body("members", equalTo(List.of()))
                .body("pagination.total", equalTo(5))
                .body("pagination.totalPages", equalTo(1));
        // Defaults: page 1, limit 20.
        list(partnerId, Map.of()).then().statusCode(200)
                .body("members.id", equalTo(newestFirst))
                .body("pagination", equalTo(pagination(1, 20, 5, 1)));
        // Limits 1 and 100 are in range.
        list(partnerId, Map.of("limit", "1")).then().statusCode(200).body("pagination", equalTo(pagination(1, 1, 5, 5)));
        list(partnerId, Map.of("limit", "100")).then().statusCode(200).body("members.id", equalTo(newestFirst));
        // A partner with no members.
        list(newPartner(), Map.of()).then().statusCode(200)
                .body("members", equalTo(List.of()))
                .body("pagination", equalTo(pagination(1, 20, 0, 0)));
    }

    @Test
    void searchesCaseInsensitivelyInFirstNameLastNameAndEmail() {
        String partnerId = newPartner();
        String byFirst = create(partnerId, "Zelda", "Quinn", "zq@example.com");
        String byLast = create(partnerId, "Mark", "McZeldaman", "mark@example.com");
        String byEmail = create(partnerId, "Ann", "Lee", "the.ZELDA_fan@example.com");
        create(partnerId, "Nobody", "Else", "nobody@example.com");
        create(newPartner(), "Zelda", "Elsewhere", "zelda@example.com");

        list(partnerId, Map.of("search", "zElDa")).then().statusCode(200)
                .body("members.id", equalTo(List.of(byEmail, byLast, byFirst)))
                .body("pagination", equalTo(pagination(1, 20, 3, 1)));
        assertEquals(List.of(byFirst), ids(list(partnerId, Map.of("search", "ZELDA", "limit", "1", "page", "3"))));
        assertEquals(List.of(byFirst), ids(list(partnerId, Map.of("search", "QUINN"))));
        assertEquals(List.of(byLast), ids(list(partnerId, Map.of("search", "mczelda"))));
        assertEquals(List.of(byEmail), ids(list(partnerId, Map.of("search", "Zelda_Fan@"))));
        // A term spanning two fields matches neither.
        assertEquals(List.of(), ids(list(partnerId, Map.of("search", "zelda quinn"))));
        // LIKE wildcards are literal characters.
        assertEquals(List.of(), ids(list(partnerId, Map.of("search", "%"))));
        assertEquals(List.of(byEmail), ids(list(partnerId, Map.of("search", "_"))));
        // An empty search filters nothing.
        assertEquals(4, ids(list(partnerId, Map.of("search", ""))).size());
    }

    @Test
    void searchesShortTermsAndTermsWithSeparatorsFieldByFieldWithExactTotals() {
        // search_text (V6) joins the lowered fields with U+001F: no term may match across it, and
        // a term shorter than a trigram must be answered as exactly as a long one.
        String partnerId = newPartner();
        String byFirst = create(partnerId, "Joan", "Smith", "a1@example.com");
        String byLast = create(partnerId, "Mary", "BaJOr", "b2@example.com");
        String byEmail = create(partnerId, "Ann", "Lee", "majordomo@example.com");
        String spanning = create(partnerId, "Raj", "Olsen", "r4@example.com");
        // A name with the separator itself, as one stored before names refused control characters
        // (issue #38) may still hold it: written straight into the row, search_text follows.
        String separated = create(partnerId, "SepArated", "Back\\\\Slash", "s5@example.com");
        assertEquals(1, ServiceDatabase.update("UPDATE members SET first_name = ? WHERE id = ?::uuid", "Sep\u001fArated", separated));
        create(newPartner(), "Jo", "Elsewhere", "jo@example.com");

        list(partnerId, Map.of("search", "jO")).then().statusCode(200)
                .body("members.id", equalTo(List.of(byEmail, byLast, byFirst)))
                .body("pagination", equalTo(pagination(1, 20, 3, 1)));
        list(partnerId, Map.of("search", "JO", "limit", "2", "page", "2")).then().statusCode(200)
                .body("members.id", equalTo(List.of(byFirst)))
                .body("pagination", equalTo(pagination(2, 2, 3, 2)));
        list(partnerId, Map.of("search", "j")).then().statusCode(200)
                .body("members.id", equalTo(List.of(spanning, byEmail, byLast, byFirst)))
                .body("pagination", equalTo(pagination(1, 20, 4, 1)));
        // Across first and last name, with and without the separator itself in the term.
        assertEquals(List.of(), ids(list(partnerId, Map.of("search", "rajolsen"))));
        assertEquals(List.of(), ids(list(partnerId, Map.of("search", "raj\u001folsen"))));
        assertEquals(List.of(), ids(list(partnerId, Map.of("search", "arated\u001fback"))));
        // The separator inside one field is an ordinary character of that field.
        assertEquals(List.of(separated), ids(list(partnerId, Map.of("search", "P\u001fa"))));
        // A backslash is literal (it is also LIKE's escape character).
        list(partnerId, Map.of("search", "K\\s")).then().statusCode(200)
                .body("members.id", equalTo(List.of(separated)))
                .body("pagination", equalTo(pagination(1, 20, 1, 1)));
        assertEquals(List.of(separated), ids(list(partnerId, Map.of("search", "\\"))));
        assertEquals(List.of(), ids(list(partnerId, Map.of("search", "\\\\"))));
        // search_text follows every update (PostgreSQL regenerates it; Hibernate never writes it).
        put(partnerId, spanning, "{\"lastName\": \"Quixote\", \"email\": \"DON@example.com\"}").then().statusCode(200);
        assertEquals(List.of(spanning), ids(list(partnerId, Map.of("search", "qUIx"))));
        assertEquals(List.of(spanning), ids(list(partnerId, Map.of("search", "don@"))));
        assertEquals(List.of(), ids(list(partnerId, Map.of("search", "olsen"))));
    }

    @Test
    void filtersByStatusBeforePagination() {
        String partnerId = newPartner();
        String paused = create(partnerId, "Paula", "Paused", "paula@example.com");
        String cancelled = create(partnerId, "Carl", "Cancelled", "carl@example.com");
        String active = create(partnerId, "Alan", "Active", "alan@example.com");
        put(partnerId, paused, "{\"status\": \"paused\"}").then().statusCode(200);
        put(partnerId, cancelled, "{\"status\": \"cancelled\"}").then().statusCode(200);

        list(partnerId, Map.of("status", "paused")).then().statusCode(200)
                .body("members.id", equalTo(List.of(paused)))
                .body("members[0].status", equalTo("paused"))
                .body("pagination", equalTo(pagination(1, 20, 1, 1)));
        assertEquals(List.of(cancelled), ids(list(partnerId, Map.of("status", "cancelled"))));
        assertEquals(List.of(active), ids(list(partnerId, Map.of("status", "active"))));
        list(partnerId, Map.of("status", "active", "search", "paula")).then().statusCode(200)
                .body("members", equalTo(List.of()))
                .body("pagination", equalTo(pagination(1, 20, 0, 0)));
        list(partnerId, Map.of("status", "paused", "search", "PAULA")).then().statusCode(200)
                .body("members.id", equalTo(List.of(paused)));
    }

    @Test
    void rejectsAnInvalidQueryWithEveryIssue() {
        String partnerId = newPartner();
        Map<String, Object> nan = new LinkedHashMap<>();
        nan.put("code", "invalid_type");
        nan.put("expected", "number");
        nan.put("received", "nan");
        nan.put("path", List.of("limit"));
        nan.put("message", "Expected number, received nan");
        list(partnerId, Map.of("limit", "abc")).then().statusCode(400).body("error", equalTo(List.of(nan)));

        Map<String, Object> tooBig = new LinkedHashMap<>();
        tooBig.put("code", "too_big");
        tooBig.put("maximum", 100);
        tooBig.put("type", "number");
        tooBig.put("inclusive", true);
        tooBig.put("exact", false);
        tooBig.put("path", List.of("limit"));
        tooBig.put("message", "Number must be less than or equal to 100");
        Map<String, Object> pageTooSmall = new LinkedHashMap<>();
        pageTooSmall.put("code", "too_small");
        pageTooSmall.put("minimum", 1);
        pageTooSmall.put("type", "number");
        pageTooSmall.put("inclusive", true);
        pageTooSmall.put("exact", false);
        pageTooSmall.put("path", List.of("page"));
        pageTooSmall.put("message", "Number must be greater than or equal to 1");
        Map<String, Object> badStatus = new LinkedHashMap<>();
        badStatus.put("code", "invalid_enum_value");
        badStatus.put("received", "gone");
        badStatus.put("options", List.of("active", "paused", "cancelled"));
        badStatus.put("path", List.of("status"));
        badStatus.put("message", "Invalid enum value. Expected 'active' | 'paused' | 'cancelled', received 'gone'");
        list(partnerId, Map.of("page", "0", "limit", "101", "status", "gone")).then().statusCode(400)
                .body("error", equalTo(List.of(pageTooSmall, tooBig, badStatus)));

        list(partnerId, Map.of("limit", "0")).then().statusCode(400)
                .body("error[0].code", equalTo("too_small"))
                .body("error[0].message", equalTo("Number must be greater than or equal to 1"));
        list(partnerId, Map.of("page", "1.5")).then().statusCode(400)
                .body("error[0].code", equalTo("invalid_type"))
                .body("error[0].expected", equalTo("integer"))
                .body("error[0].received", equalTo("float"))
                .body("error[0].path", equalTo(List.of("page")));
    }
}
