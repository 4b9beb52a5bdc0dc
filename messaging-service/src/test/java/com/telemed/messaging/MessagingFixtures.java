package com.telemed.messaging;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.UUID;

/** Calls to messaging-service as the gateway makes them (partner header on partner routes, none on /ops). */
public final class MessagingFixtures {

    private MessagingFixtures() {
    }

    public static String newPartner() {
        return UUID.randomUUID().toString();
    }

    public static RequestSpecification asPartner(String partnerId) {
        return given().header("X-Partner-Id", partnerId);
    }

    public static RequestSpecification asOperator() {
        return given();
    }

    public static Response forMember(String partnerId, String memberId) {
        return asPartner(partnerId).contentType(ContentType.JSON).body("{\"memberId\":\"" + memberId + "\"}")
                .post("/v1/messages/conversations/for-member");
    }

    public static Response createConversation(String partnerId, String body) {
        return asPartner(partnerId).contentType(ContentType.JSON).body(body).post("/v1/messages/conversations");
    }

    /** The conversation of the pair, created; returns its id. */
    public static String conversation(String partnerId, String memberId, String prescriberId) {
        return createConversation(partnerId, "{\"memberId\":\"" + memberId + "\",\"prescriberId\":\"" + prescriberId + "\"}")
                .then().statusCode(201).extract().path("conversation.id");
    }

    public static Response getConversation(String partnerId, String conversationId) {
        return asPartner(partnerId).get("/v1/messages/conversations/" + conversationId);
    }

    public static Response postText(String partnerId, String conversationId, String text) {
        return asPartner(partnerId).contentType(ContentType.JSON).body(textBody(text))
                .post("/v1/messages/conversations/" + conversationId + "/messages");
    }

    public static Response prescriberText(String conversationId, String text) {
        return asOperator().contentType(ContentType.JSON).body(textBody(text))
                .post("/ops/v1/conversations/" + conversationId + "/prescriber-messages");
    }

    public static String textBody(String text) {
        return new io.vertx.core.json.JsonObject().put("text", text).encode();
    }
}
