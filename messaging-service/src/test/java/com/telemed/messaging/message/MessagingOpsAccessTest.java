package com.telemed.messaging.message;

import static com.telemed.testkit.trust.TestPrincipals.ADMIN;
import static com.telemed.testkit.trust.TestPrincipals.SUPPORT;
import static com.telemed.testkit.http.Refusals.assertForbidden;
import static com.telemed.messaging.MessagingFixtures.conversation;
import static com.telemed.messaging.MessagingFixtures.newPartner;
import static com.telemed.messaging.MessagingFixtures.postText;
import static com.telemed.messaging.MessagingFixtures.textBody;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.messaging.MessagingNeighbours;
import com.telemed.messaging.MessagingNeighboursResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Who may call messaging's /ops operations (platform-commons' access.OpsAccess, issue #40), called as
 * the gateway forwards them: a prescriber reads and replies; support reads and hands off but never
 * replies; an administrator is neither. A prescriber in person acts on their own conversations only:
 * another prescriber's reads as unknown (people-and-pages.md, "as themselves only"). Each change writes
 * one audit entry and a person's read of a thread {@code conversation.read} (people-and-pages.md, "Audit");
 * a refused call writes none, nor does the operator key's read.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(MessagingNeighboursResource.class)
class MessagingOpsAccessTest {


    @Inject
    MessagingNeighbours neighbours;

    private static void assertForbidden(Response response) {
        response.then().statusCode(403).contentType("application/json");
        assertEquals("{\"error\":\"Forbidden\"}", response.body().asString());
    }

    @Test
    void aPrescriberRepliesSupportReadsAndAnAdministratorDoesNeither() {
        String partnerId = newPartner();
        String memberId = neighbours.member(partnerId, "Ada", "Lovelace", "ada@example.com");
        String prescriberId = neighbours.prescriber("Dr. Grace Hopper", "grace@clinic.example");
        String conversationId = conversation(partnerId, memberId, prescriberId);
        String prescriber = TestServiceProofs.person("acc_prescriber", prescriberId, "prescriber");
        String thread = "/ops/v1/conversations/" + conversationId + "/messages";
        String reply = "/ops/v1/conversations/" + conversationId + "/prescriber-messages";

        for (String refused : new String[] {ADMIN, SUPPORT, TestServiceProofs.pharmacy("ph_1")}) {
            assertForbidden(given().header(TestServiceProofs.PRINCIPAL_HEADER, refused).contentType(ContentType.JSON)
                    .body(textBody("not theirs to send")).post(reply));
            assertForbidden(given().header(TestServiceProofs.PRINCIPAL_HEADER, refused).post("/ops/v1/conversations/" + conversationId
                    + "/prescriber-read"));
        }
        assertForbidden(given().header(TestServiceProofs.PRINCIPAL_HEADER, ADMIN).get(thread));
        given().header(TestServiceProofs.PRINCIPAL_HEADER, prescriber).contentType(ContentType.JSON).body(textBody("Take it with food."))
                .post(reply).then().statusCode(201);
        for (String reader : new String[] {prescriber, SUPPORT}) {
            Response read = given().header(TestServiceProofs.PRINCIPAL_HEADER, reader).get(thread);
            read.then().statusCode(200);
            assertTrue(read.jsonPath().getList("messages.text").contains("Take it with food."), read.body().asString());
        }
        Response none = given().header(TestServiceProofs.PRINCIPAL_HEADER, "").get(thread);
        none.then().statusCode(401);
        assertEquals("{\"error\":\"Invalid token\"}", none.body().asString());
    }

    private static RequestSpecification as(String principal) {
        return given().header(TestServiceProofs.PRINCIPAL_HEADER, principal);
    }

    private static void notFound(Response response) {
        response.then().statusCode(404).contentType("application/json");
        assertEquals("{\"error\":\"Conversation not found\"}", response.body().asString());
    }

    /** The audit entries {@code actorId} wrote on {@code partnerId}'s things, each {@code (actor_type,actor_id,action,target_type,target_id,partner_id)}, sorted. */
    static List<String> audit(String actorId, String partnerId) {
        return ServiceDatabase.texts("select (actor_type, actor_id, action, target_type, target_id, partner_id)::text as entry"
                + " from audit_entries where actor_id = ? and partner_id = ? order by entry", actorId, partnerId);
    }

    /** The five conversation operations, as {@code principal}, on {@code conversationId} (its patient message {@code messageId}). */
    private static List<Response> theFiveOperations(String principal, String conversationId, String messageId) {
        String base = "/ops/v1/conversations/" + conversationId;
        return List.of(
                as(principal).get(base + "/messages"),
                as(principal).contentType(ContentType.JSON).body(textBody("Take it with food.")).post(base + "/prescriber-messages"),
                as(principal).multiPart("file", "plan.pdf", new byte[] {1, 2, 3}, "application/pdf").post(base + "/prescriber-attachments"),
                as(principal).contentType(ContentType.JSON).body("{\"category\":\"orders\"}")
                        .post(base + "/messages/" + messageId + "/handoff"),
                as(principal).post(base + "/prescriber-read"));
    }

    @Test
    void aPrescriberInPersonActsOnTheirOwnConversationsOnlyWhileSupportAndTheOperatorKeyActOnAny() {
        String partnerId = newPartner();
        String memberId = neighbours.member(partnerId, "Ada", "Lovelace", "ada@example.com");
        String ownerId = neighbours.prescriber("Dr. Grace Hopper", "grace@clinic.example");
        String otherId = neighbours.prescriber("Dr. Alan Turing", "alan@clinic.example");
        String conversationId = conversation(partnerId, memberId, ownerId);
        String messageId = postText(partnerId, conversationId, "Can I take it with coffee?").then().statusCode(201)
                .extract().path("message.id");
        String owner = TestServiceProofs.person("acc_owner", ownerId, "prescriber");
        String other = TestServiceProofs.person("acc_other", otherId, "prescriber");
        String noPrescriber = TestServiceProofs.person("acc_unnamed", null, "prescriber");
        String adminPrescriber = TestServiceProofs.person("acc_admin_other", otherId, "admin", "prescriber");

        for (String stranger : new String[] {other, noPrescriber}) {
            theFiveOperations(stranger, conversationId, messageId).forEach(MessagingOpsAccessTest::notFound);
        }
        assertEquals(0, ServiceDatabase.count("select count(*) from audit_entries where partner_id = ?", partnerId));
        List<Response> own = theFiveOperations(owner, conversationId, messageId);
        assertEquals(List.of(200, 201, 201, 200, 200), own.stream().map(Response::statusCode).toList());
        String reply = own.get(1).path("message.id");
        String attachment = own.get(2).path("message.id");
        String conversationEntry = ",conversation," + conversationId + "," + partnerId + ")";
        String messageEntry = ",message,%s," + partnerId + ")";
        assertEquals(List.of("(person,acc_owner,conversation.mark_read" + conversationEntry,
                "(person,acc_owner,conversation.read" + conversationEntry,
                "(person,acc_owner,message.attach" + messageEntry.formatted(attachment),
                "(person,acc_owner,message.create" + messageEntry.formatted(reply),
                "(person,acc_owner,message.handoff" + messageEntry.formatted(messageId)), audit("acc_owner", partnerId));
        // The prescriber's own id in another case is still theirs.
        as(TestServiceProofs.person("acc_owner", ownerId.toUpperCase(java.util.Locale.ROOT), "prescriber"))
                .get("/ops/v1/conversations/" + conversationId + "/messages").then().statusCode(200);

        Response supportRead = as(SUPPORT).get("/ops/v1/conversations/" + conversationId + "/messages");
        supportRead.then().statusCode(200);
        assertEquals(List.of("Can I take it with coffee?", "Take it with food.", "plan.pdf", MessageService.HANDOFF_TEXT),
                supportRead.jsonPath().getList("messages.text"), supportRead.body().asString());
        for (String any : new String[] {TestServiceProofs.person("acc_both", otherId, "prescriber", "support"), adminPrescriber}) {
            as(any).get("/ops/v1/conversations/" + conversationId + "/messages").then().statusCode(200);
        }
        as(SUPPORT).contentType(ContentType.JSON).body("{\"category\":\"billing\"}")
                .post("/ops/v1/conversations/" + conversationId + "/messages/" + messageId + "/handoff").then().statusCode(200);
        assertEquals(List.of("(person,acc_support,conversation.read" + conversationEntry,
                "(person,acc_support,message.handoff" + messageEntry.formatted(messageId)), audit("acc_support", partnerId));
        List<Response> operator = theFiveOperations(TestServiceProofs.OPERATOR_KEY, conversationId, messageId);
        assertEquals(List.of(200, 201, 201, 200, 200), operator.stream().map(Response::statusCode).toList());
        // The operator key's changes are audited; its read is not (only a person's is).
        assertEquals(List.of("(operator_key,service,conversation.mark_read" + conversationEntry,
                "(operator_key,service,message.attach" + messageEntry.formatted(operator.get(2).<String>path("message.id")),
                "(operator_key,service,message.create" + messageEntry.formatted(operator.get(1).<String>path("message.id")),
                "(operator_key,service,message.handoff" + messageEntry.formatted(messageId)), audit("service", partnerId));
    }
}
