package com.telemed.members.member;

import static io.restassured.RestAssured.given;

import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.testkit.time.Milliseconds;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;

/** Calls as the gateway would make them (X-Partner-Id set), and a fresh partner per test. */
final class MemberFixtures {

    static final String TIMESTAMP = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";

    static final Set<String> READ_FIELDS = Set.of("id", "firstName", "lastName", "email", "phone", "dateOfBirth",
            "state", "status", "address", "shippingAddress", "createdAt", "updatedAt", "requests");

    static final Set<String> PUT_FIELDS = Set.of("id", "firstName", "lastName", "email", "phone", "dateOfBirth",
            "state", "status", "address", "shippingAddress", "createdAt", "updatedAt");

    static final Set<String> ADDRESS_FIELDS = Set.of("street1", "street2", "city", "state", "zipCode");

    private MemberFixtures() {
    }

    static String newPartner() {
        return "partner-" + UUID.randomUUID();
    }

    static String memberBody(String firstName, String lastName, String email) {
        return """
                {"firstName": "%s", "lastName": "%s", "email": "%s", "dateOfBirth": "1990-04-01", "state": "CA",
                 "address": {"street1": "1 Main St", "city": "Springfield", "state": "CA", "zipCode": "90210"}}"""
                .formatted(firstName, lastName, email);
    }

    static Response post(String partnerId, String body) {
        return given().header("X-Partner-Id", partnerId).contentType(ContentType.JSON).body(body)
                .when().post("/v1/members");
    }

    static Response put(String partnerId, String id, String body) {
        return given().header("X-Partner-Id", partnerId).contentType(ContentType.JSON).body(body)
                .when().put("/v1/members/" + id);
    }

    static Response get(String partnerId, String id) {
        return given().header("X-Partner-Id", partnerId).when().get("/v1/members/" + id);
    }

    static Response list(String partnerId, Map<String, ?> query) {
        return given().header("X-Partner-Id", partnerId).queryParams(query).when().get("/v1/members");
    }

    /** Creates a member and returns its id; a short pause keeps creation times distinct. */
    static String create(String partnerId, String body) {
        String id = post(partnerId, body).then().statusCode(201).extract().path("member.id");
        Milliseconds.awaitNext();
        return id;
    }

    static String create(String partnerId, String firstName, String lastName, String email) {
        return create(partnerId, memberBody(firstName, lastName, email));
    }

    static List<String> ids(Response listResponse) {
        return listResponse.then().statusCode(200).extract().path("members.id");
    }

    static com.fasterxml.jackson.databind.JsonNode json(String body) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(body);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A {@code PUT} body as the resource hands it to the service: validated, then bound. */
    static MemberPatch patch(String body) {
        return MemberSchemas.bind(MemberSchemas.UPDATE, json(body), MemberPatch.class);
    }

    /** A {@code POST /v1/members} body (or inline member) as the resource hands it to the service. */
    static MemberInput input(String body) {
        return MemberSchemas.bind(MemberSchemas.CREATE, json(body), MemberInput.class);
    }

    static Response delete(String partnerId, String id) {
        return given().header("X-Partner-Id", partnerId).when().delete("/v1/members/" + id);
    }

    /** The ids of a member's status audit rows, oldest first (changed_at, then id). */
    static List<String> auditIdsOf(String memberId) {
        return ServiceDatabase.texts("SELECT id::text FROM member_status_audit WHERE member_id = ? ORDER BY changed_at, id",
                UUID.fromString(memberId));
    }

    /** The status audit rows of a member, oldest first, as "previous->new". */
    static List<String> auditOf(String memberId) {
        var config = ConfigProvider.getConfig();
        try (Connection connection = DriverManager.getConnection(
                config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getValue("quarkus.datasource.password", String.class));
             var statement = connection.prepareStatement(
                     "SELECT previous_status, new_status, partner_id FROM member_status_audit"
                             + " WHERE member_id = ? ORDER BY changed_at, id")) {
            statement.setObject(1, UUID.fromString(memberId));
            List<String> rows = new ArrayList<>();
            try (var result = statement.executeQuery()) {
                while (result.next()) {
                    rows.add(result.getString(1) + "->" + result.getString(2) + "@" + result.getString(3));
                }
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
