package com.telemed.messaging.conversation;

import static com.telemed.messaging.MessagingFixtures.asPartner;
import static com.telemed.messaging.MessagingFixtures.conversation;
import static com.telemed.messaging.MessagingFixtures.createConversation;
import static com.telemed.messaging.MessagingFixtures.forMember;
import static com.telemed.messaging.MessagingFixtures.getConversation;
import static com.telemed.messaging.MessagingFixtures.newPartner;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.messaging.MessagingNeighbours;
import com.telemed.messaging.MessagingNeighboursResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The conversation endpoints of {@code /v1/messages}: finding or creating by member (the three
 * prescriber rules) and by pair, listing, reading, and every error string of the contract.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(MessagingNeighboursResource.class)
class ConversationTest {

    @Inject
    MessagingNeighbours neighbours;

    String partnerId;
    String memberId;
    String prescriberId;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        partnerId = newPartner();
        memberId = neighbours.member(partnerId, "Ada", "Lovelace", "ada@example.com");
        prescriberId = neighbours.prescriber("Dr. Grace Hopper", "grace@clinic.example");
    }

    @Test
    void forMemberCreatesTheConversationWithTheCurrentPrescriberThenFindsIt() {
        neighbours.request(memberId, "pending", prescriberId);

        JsonPath created = forMember(partnerId, memberId).then().statusCode(201).body("created", equalTo(true)).extract().jsonPath();
        assertEquals(List.of("conversation", "created"), List.copyOf(created.getMap("").keySet()));
        JsonPath conversation = created.setRootPath("conversation");
        assertEquals(List.of("id", "memberId", "memberName", "memberEmail", "prescriberId", "prescriberName", "partnerId",
                "lastMessageAt", "lastMessagePreview", "lastMessageSenderId", "unreadByMember", "unreadByPrescriber",
                "createdAt", "updatedAt"), List.copyOf(conversation.getMap("").keySet()));
        assertEquals(memberId, conversation.getString("memberId"));
        assertEquals("Ada Lovelace", conversation.getString("memberName"));
        assertEquals("ada@example.com", conversation.getString("memberEmail"));
        assertEquals(prescriberId, conversation.getString("prescriberId"));
        assertEquals("Dr. Grace Hopper", conversation.getString("prescriberName"));
        assertEquals(partnerId, conversation.getString("partnerId"));
        assertEquals(conversation.getString("createdAt"), conversation.getString("lastMessageAt"));
        assertEquals(conversation.getString("createdAt"), conversation.getString("updatedAt"));
        assertEquals("", conversation.getString("lastMessagePreview"));
        assertEquals("", conversation.getString("lastMessageSenderId"));
        assertEquals(0, conversation.getInt("unreadByMember"));
        assertEquals(0, conversation.getInt("unreadByPrescriber"));
        assertEquals(true, conversation.getString("createdAt").matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"));

        forMember(partnerId, memberId).then().statusCode(200)
                .body("created", equalTo(false))
                .body("conversation.id", equalTo(conversation.getString("id")));
    }

    @Test
    void thePrescriberIsTheNewestOpenRequestsThenTheNewestClosedOnesThenNone() {
        forMember(partnerId, memberId).then().statusCode(409).body("error", equalTo("no_prescriber_assigned"));
        neighbours.request(memberId, "pending", null);
        forMember(partnerId, memberId).then().statusCode(409).body("error", equalTo("no_prescriber_assigned"));

        String older = neighbours.prescriber("Dr. Older", "older@clinic.example");
        String closed = neighbours.prescriber("Dr. Closed", "closed@clinic.example");
        neighbours.request(memberId, "approved", older);
        neighbours.request(memberId, "denied", closed);
        neighbours.request(memberId, "pending", null);
        // Rule 1: the newest request with a prescriber that is not denied or cancelled.
        forMember(partnerId, memberId).then().statusCode(201).body("conversation.prescriberId", equalTo(older));

        String other = newPartner();
        String closedOnly = neighbours.member(other, "Only", "Closed", "closed-only@example.com");
        neighbours.request(closedOnly, "cancelled", older);
        neighbours.request(closedOnly, "denied", closed);
        // Rule 2: every request with a prescriber is closed: the newest of those.
        forMember(other, closedOnly).then().statusCode(201).body("conversation.prescriberId", equalTo(closed));
    }

    @Test
    void aNewPrescriberMeansAnotherConversationAndTheEarlierOneStaysListed() {
        neighbours.request(memberId, "approved", prescriberId);
        String first = forMember(partnerId, memberId).then().statusCode(201).extract().path("conversation.id");
        String next = neighbours.prescriber("Dr. Next", "next@clinic.example");
        neighbours.request(memberId, "pending", next);

        String second = forMember(partnerId, memberId).then().statusCode(201)
                .body("conversation.prescriberId", equalTo(next)).extract().path("conversation.id");

        List<String> listed = asPartner(partnerId).queryParam("memberId", memberId).get("/v1/messages/conversations")
                .then().statusCode(200).body("conversations", hasSize(2)).extract().path("conversations.id");
        assertEquals(Set.of(first, second), new HashSet<>(listed));
    }

    @Test
    void forMemberRefusesWithTheContractsStrings() {
        body("{}").then().statusCode(400).body("error", equalTo("Required"));
        body("{\"memberId\":\"\"}").then().statusCode(400).body("error", equalTo("memberId is required"));
        body("{\"memberId\":12}").then().statusCode(400).body("error", equalTo("Expected string, received number"));
        String foreign = neighbours.member(newPartner(), "Other", "Partner", "other@example.com");
        forMember(partnerId, foreign).then().statusCode(403).body("error", equalTo("Member does not belong to this partner"));
        forMember(partnerId, UUID.randomUUID().toString()).then().statusCode(404).body("error", equalTo("Member not found"));
        forMember(partnerId, "not-a-uuid").then().statusCode(404).body("error", equalTo("Member not found"));
        assertEquals(0, conversationsOf(partnerId));
    }

    private io.restassured.response.Response body(String json) {
        return asPartner(partnerId).contentType(ContentType.JSON).body(json).post("/v1/messages/conversations/for-member");
    }

    @Test
    void aPairMakesOneConversationAndAnUnknownPrescriberIsNotFound() {
        String body = "{\"memberId\":\"" + memberId + "\",\"prescriberId\":\"" + prescriberId + "\"}";
        String id = createConversation(partnerId, body).then().statusCode(201)
                .body("conversation.prescriberName", equalTo("Dr. Grace Hopper")).extract().path("conversation.id");
        createConversation(partnerId, body).then().statusCode(200).body("conversation.id", equalTo(id))
                .body("created", equalTo(null));

        createConversation(partnerId, "{}").then().statusCode(400).body("error", equalTo("Required"));
        createConversation(partnerId, "{\"memberId\":\"\",\"prescriberId\":\"\"}").then().statusCode(400)
                .body("error", equalTo("memberId is required"));
        createConversation(partnerId, "{\"memberId\":\"" + memberId + "\"}").then().statusCode(400).body("error", equalTo("Required"));
        createConversation(partnerId, "{\"memberId\":\"" + memberId + "\",\"prescriberId\":\"\"}").then().statusCode(400)
                .body("error", equalTo("prescriberId is required"));
        createConversation(partnerId, "{\"memberId\":\"" + memberId + "\",\"prescriberId\":\"" + UUID.randomUUID() + "\"}")
                .then().statusCode(404).body("error", equalTo("Prescriber not found"));
        createConversation(partnerId, "{\"memberId\":\"" + memberId + "\",\"prescriberId\":\"dr-who\"}")
                .then().statusCode(404).body("error", equalTo("Prescriber not found"));
        String foreign = neighbours.member(newPartner(), "Other", "Partner", "other@example.com");
        createConversation(partnerId, "{\"memberId\":\"" + foreign + "\",\"prescriberId\":\"" + prescriberId + "\"}")
                .then().statusCode(403).body("error", equalTo("Member does not belong to this partner"));
        createConversation(partnerId, "{\"memberId\":\"" + UUID.randomUUID() + "\",\"prescriberId\":\"" + prescriberId + "\"}")
                .then().statusCode(404).body("error", equalTo("Member not found"));
        assertEquals(1, conversationsOf(partnerId));
    }

    @Test
    void identicalConcurrentCreatesMakeOneConversation() throws Exception {
        int callers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        CountDownLatch start = new CountDownLatch(1);
        String body = "{\"memberId\":\"" + memberId + "\",\"prescriberId\":\"" + prescriberId + "\"}";
        try {
            List<Future<io.restassured.response.Response>> answers = new ArrayList<>();
            for (int index = 0; index < callers; index++) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return createConversation(partnerId, body);
                }));
            }
            start.countDown();
            List<Integer> statuses = new ArrayList<>();
            Set<String> ids = new HashSet<>();
            for (Future<io.restassured.response.Response> answer : answers) {
                statuses.add(answer.get().statusCode());
                ids.add(answer.get().path("conversation.id"));
            }
            assertEquals(1, statuses.stream().filter(status -> status == 201).count(), statuses.toString());
            assertEquals(callers - 1, statuses.stream().filter(status -> status == 200).count(), statuses.toString());
            assertEquals(1, ids.size());
            assertEquals(1, conversationsOf(partnerId));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void listingAndReadingAreScopedByPartner() {
        asPartner(partnerId).get("/v1/messages/conversations").then().statusCode(400)
                .body("error", equalTo("memberId query parameter is required"));
        asPartner(partnerId).queryParam("memberId", "").get("/v1/messages/conversations").then().statusCode(400)
                .body("error", equalTo("memberId query parameter is required"));
        asPartner(partnerId).queryParam("memberId", memberId).get("/v1/messages/conversations").then().statusCode(200)
                .body("conversations", hasSize(0));
        String id = conversation(partnerId, memberId, prescriberId);

        String other = newPartner();
        asPartner(other).queryParam("memberId", memberId).get("/v1/messages/conversations").then().statusCode(403)
                .body("error", equalTo("Member does not belong to this partner"));
        asPartner(partnerId).queryParam("memberId", UUID.randomUUID().toString()).get("/v1/messages/conversations")
                .then().statusCode(403).body("error", equalTo("Member does not belong to this partner"));

        getConversation(partnerId, id).then().statusCode(200).body("conversation.id", equalTo(id));
        getConversation(other, id).then().statusCode(403).body("error", equalTo("Conversation does not belong to this partner"));
        getConversation(partnerId, UUID.randomUUID().toString()).then().statusCode(404).body("error", equalTo("Conversation not found"));
        getConversation(partnerId, "nope").then().statusCode(404).body("error", equalTo("Conversation not found"));
    }

    @Test
    void theListIsMostRecentlyActiveFirst() {
        String first = conversation(partnerId, memberId, prescriberId);
        String second = conversation(partnerId, memberId, neighbours.prescriber("Dr. Two", "two@clinic.example"));
        com.telemed.messaging.MessagingFixtures.postText(partnerId, first, "hello again").then().statusCode(201);

        List<String> listed = asPartner(partnerId).queryParam("memberId", memberId).get("/v1/messages/conversations")
                .then().statusCode(200).extract().path("conversations.id");
        assertEquals(List.of(first, second), listed);
    }

    private static long conversationsOf(String partnerId) {
        return ServiceDatabase.count("SELECT count(*) FROM conversations WHERE partner_id = ?", partnerId);
    }
}
