package com.telemed.messaging.message;

import static com.telemed.messaging.MessagingFixtures.conversation;
import static com.telemed.messaging.MessagingFixtures.newPartner;
import static com.telemed.messaging.MessagingFixtures.textBody;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.messaging.MessagingNeighbours;
import com.telemed.messaging.MessagingNeighboursResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/**
 * Who may call messaging's /ops operations (platform-commons' access.OpsAccess, issue #40), called as
 * the gateway forwards them: a prescriber reads and replies; support reads and hands off but never
 * replies; an administrator is neither.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(MessagingNeighboursResource.class)
class MessagingOpsAccessTest {

    private static final String ADMIN = TestServiceProofs.person("acc_admin", null, "admin");
    private static final String SUPPORT = TestServiceProofs.person("acc_support", null, "support");

    @Inject
    MessagingNeighbours neighbours;

    private static void forbidden(Response response) {
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
            forbidden(given().header(TestServiceProofs.PRINCIPAL_HEADER, refused).contentType(ContentType.JSON)
                    .body(textBody("not theirs to send")).post(reply));
            forbidden(given().header(TestServiceProofs.PRINCIPAL_HEADER, refused).post("/ops/v1/conversations/" + conversationId
                    + "/prescriber-read"));
        }
        forbidden(given().header(TestServiceProofs.PRINCIPAL_HEADER, ADMIN).get(thread));
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
}
