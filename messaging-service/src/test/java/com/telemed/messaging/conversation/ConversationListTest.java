package com.telemed.messaging.conversation;

import static com.telemed.messaging.MessagingFixtures.conversation;
import static com.telemed.messaging.MessagingFixtures.getConversation;
import static com.telemed.messaging.MessagingFixtures.newPartner;
import static com.telemed.messaging.MessagingFixtures.postText;
import static com.telemed.messaging.MessagingFixtures.textBody;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The console's list of threads, {@code GET /ops/v1/conversations} (issue #41): each conversation as the
 * partner API gives it, threads with unread patient messages first, then the latest message first; a
 * cursor that pages without a duplicate or a gap, also while threads change between pages; a prescriber
 * in person lists their own threads only, support, administrators and the operator key every one; one
 * {@code conversation.list} audit entry per person's read, none for the operator key. The operator key
 * in production: {@code com.telemed.common.access.ConversationListInProductionTest}.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(MessagingNeighboursResource.class)
class ConversationListTest {

    private static final String LIST = "/ops/v1/conversations";

    @Inject
    MessagingNeighbours neighbours;

    private static RequestSpecification as(String principal) {
        return given().header(TestServiceProofs.PRINCIPAL_HEADER, principal);
    }

    private static String prescriberPerson(String accountId, String prescriberId) {
        return TestServiceProofs.person(accountId, prescriberId, "prescriber");
    }

    /** The conversation exactly as the partner API answers it ({@code GET /v1/messages/conversations/:id}). */
    private static String partnerView(String partnerId, String conversationId) {
        String envelope = getConversation(partnerId, conversationId).then().statusCode(200).extract().body().asString();
        String prefix = "{\"conversation\":";
        assertTrue(envelope.startsWith(prefix) && envelope.endsWith("}"), envelope);
        return envelope.substring(prefix.length(), envelope.length() - 1);
    }

    private static String page(List<String> views, String nextCursor) {
        return "{\"conversations\":[" + String.join(",", views) + "],\"nextCursor\":"
                + (nextCursor == null ? "null" : "\"" + nextCursor + "\"") + "}";
    }

    private static Response list(String principal, String query) {
        Response response = as(principal).get(LIST + query);
        response.then().statusCode(200).contentType("application/json");
        return response;
    }

    /** The threads' ids in the list's order as the partner API shows them now: unread first, then newest, then id, descending. */
    private static List<String> listOrder(String partnerId, List<String> conversationIds) {
        List<JsonPath> views = conversationIds.stream().map(id -> getConversation(partnerId, id).jsonPath().setRootPath("conversation"))
                .toList();
        return views.stream().sorted(Comparator.<JsonPath, Boolean>comparing(view -> view.getInt("unreadByPrescriber") > 0)
                        .thenComparing(view -> Instant.parse(view.getString("lastMessageAt")))
                        .thenComparing(view -> UUID.fromString(view.getString("id")))
                        .reversed())
                .map(view -> view.getString("id")).toList();
    }

    private static String cursor(String asOf, boolean unread, String lastMessageAt, String id) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((Instant.parse(asOf) + "|" + (unread ? "1" : "0") + "|"
                + Instant.parse(lastMessageAt) + "|" + id).getBytes(StandardCharsets.UTF_8));
    }

    private static String asOf(String nextCursor) {
        return new String(Base64.getUrlDecoder().decode(nextCursor), StandardCharsets.UTF_8).split("\\|")[0];
    }

    private Response prescriberText(String principal, String conversationId, String text) {
        return as(principal).contentType(ContentType.JSON).body(textBody(text))
                .post("/ops/v1/conversations/" + conversationId + "/prescriber-messages");
    }

    @Test
    void eachThreadAsThePartnerApiGivesItUnreadFirstThenTheNewestAndTheCursorOfTheLastOneShown() {
        String partnerId = newPartner();
        String prescriberId = neighbours.prescriber("Dr. Grace Hopper", "grace@clinic.example");
        String prescriber = prescriberPerson("acc_list_" + UUID.randomUUID(), prescriberId);
        String quiet = conversation(partnerId, neighbours.member(partnerId, "Ada", "Lovelace", "ada@example.com"), prescriberId);
        String answered = conversation(partnerId, neighbours.member(partnerId, "Mary", "Somerville", "mary@example.com"), prescriberId);
        String waiting = conversation(partnerId, neighbours.member(partnerId, "Emmy", "Noether", "emmy@example.com"), prescriberId);
        // The patient waits on the oldest activity; the prescriber's answer is newer than the quiet thread's creation.
        postText(partnerId, waiting, "Can I take it with coffee?").then().statusCode(201);
        prescriberText(prescriber, answered, "Take it with food.").then().statusCode(201);
        assertEquals(List.of(waiting, answered, quiet), listOrder(partnerId, List.of(quiet, answered, waiting)));

        Response all = list(prescriber, "");
        assertEquals(page(List.of(partnerView(partnerId, waiting), partnerView(partnerId, answered), partnerView(partnerId, quiet)), null),
                all.body().asString());

        Response first = list(prescriber, "?limit=2");
        String nextCursor = first.path("nextCursor");
        JsonPath answeredView = getConversation(partnerId, answered).jsonPath().setRootPath("conversation");
        assertEquals(cursor(asOf(nextCursor), false, answeredView.getString("lastMessageAt"), answered), nextCursor);
        assertEquals(page(List.of(partnerView(partnerId, waiting), partnerView(partnerId, answered)), nextCursor),
                first.body().asString());
        assertEquals(page(List.of(partnerView(partnerId, quiet)), null), list(prescriber, "?limit=2&after=" + nextCursor).body().asString());
        assertEquals(page(List.of(partnerView(partnerId, waiting)), null), list(prescriber, "?unread=true").body().asString());
        assertEquals(page(List.of(partnerView(partnerId, waiting), partnerView(partnerId, answered), partnerView(partnerId, quiet)), null),
                list(prescriber, "?unread=false&limit=100").body().asString());
    }

    @Test
    void theCursorPagesWithoutADuplicateOrAGapWhileThreadsChangeBetweenPages() {
        String partnerId = newPartner();
        String prescriberId = neighbours.prescriber("Dr. Grace Hopper", "grace@clinic.example");
        String prescriber = prescriberPerson("acc_pages_" + UUID.randomUUID(), prescriberId);
        List<String> threads = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            threads.add(conversation(partnerId, neighbours.member(partnerId, "Member", "No" + i, "m" + i + "@example.com"), prescriberId));
        }
        postText(partnerId, threads.get(0), "First question").then().statusCode(201);
        postText(partnerId, threads.get(1), "Second question").then().statusCode(201);
        prescriberText(prescriber, threads.get(2), "An answer").then().statusCode(201);
        prescriberText(prescriber, threads.get(4), "Another answer").then().statusCode(201);
        List<String> order = listOrder(partnerId, threads);
        assertEquals(List.of(threads.get(1), threads.get(0)), order.subList(0, 2));

        // Unchanged threads: every page is the next slice of the order.
        List<String> paged = new ArrayList<>();
        String after = null;
        do {
            Response page = list(prescriber, "?limit=4" + (after == null ? "" : "&after=" + after));
            paged.addAll(page.jsonPath().getList("conversations.id"));
            after = page.path("nextCursor");
        } while (after != null);
        assertEquals(order, paged);

        Response first = list(prescriber, "?limit=2");
        assertEquals(order.subList(0, 2), first.jsonPath().getList("conversations.id"));
        // The changes below come after the first page's time (milliseconds, as stored), as any later call's do.
        Instant firstPageAt = Instant.parse(asOf(first.path("nextCursor")));
        await().atMost(Duration.ofSeconds(5)).until(() -> Instant.now().truncatedTo(ChronoUnit.MILLIS).isAfter(firstPageAt));
        // Between pages: the prescriber opens the first thread shown and reads it (it would now sort behind the
        // cursor), a patient writes in a thread not shown yet (it would now sort ahead of it), the prescriber
        // answers in another not shown yet, and a new thread begins.
        as(prescriber).post("/ops/v1/conversations/" + order.get(0) + "/prescriber-read").then().statusCode(200);
        postText(partnerId, order.get(4), "A question meanwhile").then().statusCode(201);
        prescriberText(prescriber, order.get(5), "An answer meanwhile").then().statusCode(201);
        String started = conversation(partnerId, neighbours.member(partnerId, "New", "Patient", "new@example.com"), prescriberId);

        // The later pages continue the order as it stood when the first page was read, each thread as it is now.
        Response second = list(prescriber, "?limit=2&after=" + first.path("nextCursor"));
        String secondCursor = second.path("nextCursor");
        assertEquals(page(List.of(partnerView(partnerId, order.get(2)), partnerView(partnerId, order.get(3))), secondCursor),
                second.body().asString());
        Response third = list(prescriber, "?limit=2&after=" + secondCursor);
        assertEquals(page(List.of(partnerView(partnerId, order.get(4)), partnerView(partnerId, order.get(5))), null),
                third.body().asString());
        assertEquals(1, third.jsonPath().getInt("conversations[0].unreadByPrescriber"));
        assertEquals("A question meanwhile", third.jsonPath().getString("conversations[0].lastMessagePreview"));

        // A new first page shows where they stand now.
        List<String> now = new ArrayList<>(threads);
        now.add(started);
        List<String> newOrder = listOrder(partnerId, now);
        assertEquals(newOrder, list(prescriber, "?limit=100").jsonPath().getList("conversations.id"));
        assertEquals(List.of(order.get(4), order.get(1), started), newOrder.subList(0, 3));
        assertEquals(List.of(order.get(4), order.get(1)), list(prescriber, "?unread=true").jsonPath().getList("conversations.id"));
    }

    @Test
    void aPrescriberListsTheirOwnThreadsOnlyWhileSupportAdministratorsAndTheOperatorKeyListEveryOne() {
        String partnerId = newPartner();
        String otherPartnerId = newPartner();
        String ownerId = neighbours.prescriber("Dr. Grace Hopper", "grace@clinic.example");
        String otherId = neighbours.prescriber("Dr. Alan Turing", "alan@clinic.example");
        String own = conversation(partnerId, neighbours.member(partnerId, "Ada", "Lovelace", "ada@example.com"), ownerId);
        String others = conversation(otherPartnerId, neighbours.member(otherPartnerId, "Mary", "Somerville", "mary@example.com"), otherId);

        assertEquals(page(List.of(partnerView(partnerId, own)), null),
                list(prescriberPerson("acc_owner_" + UUID.randomUUID(), ownerId), "").body().asString());
        assertEquals(page(List.of(partnerView(otherPartnerId, others)), null),
                list(prescriberPerson("acc_other_" + UUID.randomUUID(), otherId), "").body().asString());
        // The prescriber's own id in another case is still theirs; an account that names no prescriber lists none.
        assertEquals(List.of(own), list(prescriberPerson("acc_owner", ownerId.toUpperCase(java.util.Locale.ROOT)), "")
                .jsonPath().getList("conversations.id"));
        assertEquals("{\"conversations\":[],\"nextCursor\":null}",
                list(TestServiceProofs.person("acc_unnamed_" + UUID.randomUUID(), null, "prescriber"), "").body().asString());

        for (String any : new String[] {TestServiceProofs.person("acc_support_" + UUID.randomUUID(), null, "support"),
                TestServiceProofs.person("acc_admin_" + UUID.randomUUID(), null, "admin"),
                TestServiceProofs.person("acc_both_" + UUID.randomUUID(), otherId, "prescriber", "support"),
                TestServiceProofs.OPERATOR_KEY}) {
            List<String> every = everyThread(any);
            assertTrue(every.contains(own) && every.contains(others), any);
            assertEquals(every.size(), new HashSet<>(every).size(), any);
        }
        Response refused = as(TestServiceProofs.pharmacy("ph_1")).get(LIST);
        refused.then().statusCode(403).contentType("application/json");
        assertEquals("{\"error\":\"Forbidden\"}", refused.body().asString());
        Response none = as("").get(LIST);
        none.then().statusCode(401);
        assertEquals("{\"error\":\"Invalid token\"}", none.body().asString());
    }

    /** Every thread {@code principal} lists, page by page, in the list's order (each page checked against it). */
    private static List<String> everyThread(String principal) {
        List<String> every = new ArrayList<>();
        String after = null;
        do {
            Response page = list(principal, "?limit=100" + (after == null ? "" : "&after=" + after));
            List<Map<String, Object>> conversations = page.jsonPath().getList("conversations");
            conversations.forEach(conversation -> every.add((String) conversation.get("id")));
            after = page.path("nextCursor");
        } while (after != null);
        return every;
    }

    @Test
    void aPersonsReadIsAuditedOnceAndTheOperatorKeysNot() {
        String partnerId = newPartner();
        String prescriberId = neighbours.prescriber("Dr. Grace Hopper", "grace@clinic.example");
        conversation(partnerId, neighbours.member(partnerId, "Ada", "Lovelace", "ada@example.com"), prescriberId);
        String account = "acc_audited_" + UUID.randomUUID();
        String support = "acc_support_audited_" + UUID.randomUUID();

        list(prescriberPerson(account, prescriberId), "");
        list(TestServiceProofs.person(support, null, "support"), "?unread=true&limit=1");
        long keyReadsBefore = ServiceDatabase.count("select count(*) from audit_entries where action = 'conversation.list'"
                + " and actor_type <> 'person'");
        list(TestServiceProofs.OPERATOR_KEY, "");

        assertEquals(List.of("(person," + account + ",conversation.list,conversation,,)"), ServiceDatabase.texts(
                "select (actor_type, actor_id, action, target_type, target_id, partner_id)::text from audit_entries where actor_id = ?",
                account));
        assertEquals(List.of("(person," + support + ",conversation.list,conversation,,)"), ServiceDatabase.texts(
                "select (actor_type, actor_id, action, target_type, target_id, partner_id)::text from audit_entries where actor_id = ?",
                support));
        assertEquals(0, keyReadsBefore);
        assertEquals(0, ServiceDatabase.count("select count(*) from audit_entries where action = 'conversation.list'"
                + " and actor_type <> 'person'"));
        // A refused read writes nothing.
        as(TestServiceProofs.person("acc_refused", prescriberId, "prescriber")).get(LIST + "?limit=0").then().statusCode(400);
        assertEquals(0, ServiceDatabase.count("select count(*) from audit_entries where actor_id = 'acc_refused'"));
    }

    @Test
    void badParametersAreRefusedWithTheirIssues() {
        String prescriber = prescriberPerson("acc_params", UUID.randomUUID().toString());
        Map<String, String> refused = new java.util.LinkedHashMap<>();
        refused.put("?limit=0", "{\"error\":[{\"code\":\"too_small\",\"minimum\":1,\"type\":\"number\",\"inclusive\":true,"
                + "\"exact\":false,\"path\":[\"limit\"],\"message\":\"Number must be greater than or equal to 1\"}]}");
        refused.put("?limit=101", "{\"error\":[{\"code\":\"too_big\",\"maximum\":100,\"type\":\"number\",\"inclusive\":true,"
                + "\"exact\":false,\"path\":[\"limit\"],\"message\":\"Number must be less than or equal to 100\"}]}");
        refused.put("?limit=2.5", "{\"error\":[{\"code\":\"invalid_type\",\"expected\":\"integer\",\"received\":\"float\","
                + "\"path\":[\"limit\"],\"message\":\"Expected integer, received float\"}]}");
        refused.put("?limit=ten", "{\"error\":[{\"code\":\"invalid_type\",\"expected\":\"number\",\"received\":\"nan\","
                + "\"path\":[\"limit\"],\"message\":\"Expected number, received nan\"}]}");
        // Sent empty is sent: Zod's coercion makes it 0.
        refused.put("?limit=", refused.get("?limit=0"));
        String invalidCursor = "{\"error\":[{\"code\":\"custom\",\"path\":[\"after\"],\"message\":\"Invalid cursor\"}]}";
        refused.put("?after=bm90LWEtY3Vyc29y", invalidCursor);
        refused.put("?after=", invalidCursor);
        // A cursor's form with a year PostgreSQL cannot hold, and one with a short uuid: not ours.
        refused.put("?after=" + Base64.getUrlEncoder().withoutPadding().encodeToString(("+100000-01-01T00:00:00Z|1|2026-01-01T00:00:00Z|"
                + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8)), invalidCursor);
        refused.put("?after=" + Base64.getUrlEncoder().withoutPadding().encodeToString("2026-01-01T00:00:00Z|1|2026-01-01T00:00:00Z|1-2-3-4-5"
                .getBytes(StandardCharsets.UTF_8)), invalidCursor);
        refused.put("?unread=yes", "{\"error\":[{\"code\":\"invalid_enum_value\",\"received\":\"yes\",\"options\":[\"true\",\"false\"],"
                + "\"path\":[\"unread\"],\"message\":\"Invalid enum value. Expected 'true' | 'false', received 'yes'\"}]}");
        refused.put("?unread=", "{\"error\":[{\"code\":\"invalid_enum_value\",\"received\":\"\",\"options\":[\"true\",\"false\"],"
                + "\"path\":[\"unread\"],\"message\":\"Invalid enum value. Expected 'true' | 'false', received ''\"}]}");
        refused.forEach((query, body) -> {
            Response response = as(prescriber).get(LIST + query);
            assertEquals(400, response.statusCode(), query + " " + response.body().asString());
            response.then().contentType("application/json");
            assertEquals(body, response.body().asString(), query);
        });
        // Every issue at once.
        Response all = as(prescriber).get(LIST + "?limit=0&after=x&unread=1");
        all.then().statusCode(400);
        assertEquals(List.of(List.of("limit"), List.of("after"), List.of("unread")), all.jsonPath().getList("error.path"));
        // A cursor this service wrote, for threads that are gone from the scope, is simply the end.
        String valid = cursor("2026-01-01T00:00:00Z", false, "2026-01-01T00:00:00Z", UUID.randomUUID().toString());
        assertEquals("{\"conversations\":[],\"nextCursor\":null}", list(prescriber, "?after=" + valid).body().asString());
        assertNull(list(prescriber, "?limit=100&unread=false").path("nextCursor"));
    }
}
