package com.telemed.requests.request;

import static io.restassured.RestAssured.given;

import com.telemed.testkit.trust.SignedQuarkusTests;
import com.telemed.testkit.trust.TestServiceProofs;
import io.restassured.RestAssured;
import io.restassured.builder.ResponseBuilder;
import io.restassured.response.Response;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import io.restassured.specification.RequestSpecification;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Bodies and calls of the partner API of requests (partner-api.md, Requests). */
public final class RequestFixtures {

    static final String TIMESTAMP = "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$";

    private RequestFixtures() {
    }

    public static String newPartner() {
        return "partner-" + UUID.randomUUID();
    }

    public static String newDrugId() {
        return "drug-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static Map<String, Object> address() {
        Map<String, Object> address = new LinkedHashMap<>();
        address.put("street1", "1 Main St");
        address.put("city", "Sacramento");
        address.put("state", "CA");
        address.put("zipCode", "95814");
        return address;
    }

    static Map<String, Object> inlineMember(String email) {
        Map<String, Object> member = new LinkedHashMap<>();
        member.put("firstName", "Ada");
        member.put("lastName", "Lovelace");
        member.put("email", email);
        member.put("dateOfBirth", "1990-04-12");
        member.put("state", "CA");
        member.put("address", address());
        return member;
    }

    static Map<String, Object> item(String drugId) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("drugId", drugId);
        return item;
    }

    /** A prescription request for an existing member: {@code {memberId, items:[{drugId}], caseNotes}}. */
    public static Map<String, Object> prescription(String memberId, String drugId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("memberId", memberId);
        body.put("items", List.of(item(drugId)));
        body.put("caseNotes", "Patient reports mild symptoms");
        return body;
    }

    /** A consultation request: no items, no drugId. */
    public static Map<String, Object> consultation(String memberId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("memberId", memberId);
        body.put("caseNotes", "Wants a consultation");
        return body;
    }

    static RequestSpecification as(String partnerId) {
        return given().header("X-Partner-Id", partnerId);
    }

    static Response post(String partnerId, Object body) {
        return as(partnerId).contentType("application/json").body(body).when().post("/v1/requests");
    }

    static Response post(String partnerId, Object body, String idempotencyKey) {
        return as(partnerId).contentType("application/json").header("Idempotency-Key", idempotencyKey).body(body)
                .when().post("/v1/requests");
    }

    /** Creates the request (201) and returns its id. */
    public static String created(String partnerId, Object body) {
        return post(partnerId, body).then().statusCode(201).extract().jsonPath().getString("requestId");
    }

    public static Response get(String partnerId, String requestId) {
        return as(partnerId).when().get("/v1/requests/" + requestId);
    }

    static Response list(String partnerId, String query) {
        return as(partnerId).when().get("/v1/requests" + (query.isEmpty() ? "" : "?" + query));
    }

    /** {@code body} null: a POST with no body and no Content-Type (RestAssured would send a form content type). */
    static Response cancel(String partnerId, String requestId, Object body) {
        if (body != null) {
            return as(partnerId).contentType("application/json").body(body).when().post("/v1/requests/" + requestId + "/cancel");
        }
        try {
            String target = "/v1/requests/" + requestId + "/cancel";
            HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(RestAssured.baseURI + ":" + RestAssured.port + target))
                    .header("X-Partner-Id", partnerId).POST(HttpRequest.BodyPublishers.noBody());
            // Signed as REST Assured's calls are (SignedQuarkusTests): the service serves no call without a proof.
            TestServiceProofs.headers(SignedQuarkusTests.applicationKey(), "POST", target, partnerId).forEach(builder::header);
            HttpRequest request = builder.build();
            HttpResponse<String> answer = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
            return new ResponseBuilder().setStatusCode(answer.statusCode()).setBody(answer.body())
                    .setContentType(answer.headers().firstValue("Content-Type").orElse("application/json")).build();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static Response delete(String partnerId, String requestId) {
        return as(partnerId).when().delete("/v1/requests/" + requestId);
    }

    public static Map<String, Object> issue(String code, List<Object> path, String message, Object... details) {
        Map<String, Object> issue = new LinkedHashMap<>();
        issue.put("code", code);
        for (int index = 0; index < details.length; index += 2) {
            issue.put((String) details[index], details[index + 1]);
        }
        issue.put("path", path);
        issue.put("message", message);
        return issue;
    }

    public static Map<String, Object> error(String message) {
        return Map.of("error", message);
    }
}
