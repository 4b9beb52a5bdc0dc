package com.telemed.web.console.conversation;

import static com.github.tomakehurst.wiremock.client.WireMock.aMultipart;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.telemed.web.PageCalls.json;
import static com.telemed.web.console.ConsoleCalls.as;
import static com.telemed.web.console.ConsoleCalls.assertSeeOther;
import static com.telemed.web.console.ConsoleCalls.formAs;
import static com.telemed.web.console.ConsoleCalls.page;
import static com.telemed.web.console.conversation.Conversations.FIRST;
import static com.telemed.web.console.conversation.Conversations.conversation;
import static com.telemed.web.console.conversation.Conversations.message;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.telemed.web.Neighbours;
import com.telemed.web.console.ConsoleCalls;
import com.telemed.web.console.ConsoleCalls.TestSession;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A thread's page: its messages, marking it read, and the reply, attach and hand-off forms, their bodies and refusals. */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class ThreadPageTest {

    static final String PAGE = "/console/conversations/" + FIRST;
    static final String API = "/ops/v1/conversations/" + FIRST;
    static final String ASKED = "6d1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e01";
    static final String ANSWERED = "6d1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e02";
    static final String STATUS = "6d1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e03";
    static final String PHOTO = "6d1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e04";
    static final String HANDED = "6d1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e05";
    static final String HANDOFF = PAGE + "/messages/" + ASKED + "/handoff";

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    static List<Map<String, Object>> messages() {
        Map<String, Object> photo = message(PHOTO, "patient", "rash.jpg", "2030-03-01T09:20:00Z");
        photo.put("type", "attachment");
        photo.put("attachmentUrl", "https://files.example.com/attachments/abc/rash.jpg");
        photo.put("attachmentName", "rash.jpg");
        Map<String, Object> handed = message(HANDED, "patient", "Where is my refund?", "2030-03-01T09:30:00Z");
        handed.put("handoffCategory", "billing");
        Map<String, Object> script = message("6d1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e06", "prescriber", "<script>alert(1)</script>", "2030-03-01T09:40:00Z");
        script.put("attachmentUrl", "javascript:alert(1)");
        return List.of(message(ASKED, "patient", "Is it safe\nwith coffee?", "2030-03-01T09:05:59.999Z"),
                message(ANSWERED, "prescriber", "Yes.", "2030-03-01T09:10:00Z"),
                message(STATUS, "system", "Your request was approved.", "2030-03-01T09:15:00Z"), photo, handed, script);
    }

    static void thread(int unread) {
        Neighbours.gateway().stubFor(get(urlPathEqualTo(API + "/messages"))
                .willReturn(okJson(json(Conversations.thread(conversation(FIRST, "Jo Bloggs", "2030-03-01T09:40:00Z", unread), messages(), null)))));
        Neighbours.gateway().stubFor(post(urlPathEqualTo(API + "/prescriber-read")).willReturn(okJson("{\"success\":true}")));
    }

    static void refused(MappingBuilder call, int status, String body) {
        Neighbours.gateway().stubFor(call.willReturn(aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(body)));
    }

    static RequestSpecification multipart(TestSession session, String csrf) {
        RequestSpecification request = ConsoleCalls.as(session).contentType("multipart/form-data");
        return csrf == null ? request : request.multiPart("csrf", csrf);
    }

    @Test
    void aPrescriberReadsTheThreadOldestFirstMarksItReadAndHasEveryForm() {
        thread(2);
        Document page = page(as(ConsoleCalls.prescriber()).get(PAGE), 200);
        assertEquals("Conversation", page.selectFirst("h1").text());
        assertEquals("Patient Jo Bloggs Prescriber Dr Ada Okafor", page.selectFirst("dl#conversation").text());
        List<Element> items = page.select("li.message");
        assertEquals(List.of(ASKED, ANSWERED, STATUS, PHOTO, HANDED, "6d1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e06"),
                items.stream().map(item -> item.attr("data-message-id")).toList());
        assertEquals(List.of("patient", "prescriber", "system", "patient", "patient", "prescriber"),
                items.stream().map(item -> item.attr("data-sender")).toList());
        assertEquals("Patient Jo Bloggs 2030-03-01 09:05", items.get(0).selectFirst(".message-meta").text());
        assertEquals("Is it safe\nwith coffee?", items.get(0).selectFirst(".message-text").wholeText());
        assertEquals("Prescriber Dr Ada Okafor 2030-03-01 09:10", items.get(1).selectFirst(".message-meta").text());
        assertEquals("System System 2030-03-01 09:15", items.get(2).selectFirst(".message-meta").text());
        Element attachment = items.get(3).selectFirst("a.attachment");
        assertEquals("https://files.example.com/attachments/abc/rash.jpg", attachment.attr("href"));
        assertEquals("rash.jpg", attachment.text());
        assertEquals("Handed off: Billing", items.get(4).selectFirst(".handed-off").text());
        assertEquals("<script>alert(1)</script>", items.get(5).selectFirst(".message-text").text());
        assertNull(items.get(5).selectFirst("a"), "only an http(s) link");

        assertEquals(List.of(ASKED, PHOTO, HANDED), page.select("li.message:has(form.handoff-form)").stream()
                .map(item -> item.attr("data-message-id")).toList());
        Element handOff = items.get(0).selectFirst("form");
        assertEquals("post", handOff.attr("method"));
        assertEquals(HANDOFF, handOff.attr("action"));
        Element category = handOff.selectFirst("select[name=category]");
        assertEquals("Category", page.selectFirst("label[for=" + category.id() + "]").text());
        assertEquals(List.of("", "billing", "orders", "account", "technical", "other"), category.select("option").eachAttr("value"));
        assertEquals(List.of("Choose a category", "Billing", "Orders", "Account", "Technical", "Other"), category.select("option").eachText());
        assertEquals("Note", page.selectFirst("label[for=" + handOff.selectFirst("input[name=note]").id() + "]").text());
        assertEquals("Hand off", handOff.selectFirst("button").text());

        Element reply = page.selectFirst("form[action=" + PAGE + "/reply]");
        assertEquals("post", reply.attr("method"));
        assertEquals("textarea", reply.selectFirst("[name=text]").tagName());
        assertEquals("Message", page.selectFirst("label[for=text]").text());
        assertEquals("Send", reply.selectFirst("button").text());
        Element attach = page.selectFirst("form[action=" + PAGE + "/attach]");
        assertEquals("multipart/form-data", attach.attr("enctype"));
        assertEquals("file", attach.selectFirst("input#file[name=file]").attr("type"));
        assertEquals("File", page.selectFirst("label[for=file]").text());
        assertEquals("Attach", attach.selectFirst("button").text());

        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo(API + "/messages"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN))
                .withQueryParam("limit", equalTo("100")).withQueryParam("cursor", absent()));
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo(API + "/prescriber-read"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)));
        // Newest first.
        List<String> calls = Neighbours.gateway().getAllServeEvents().stream().map(ServeEvent::getRequest)
                .map(request -> request.getMethod() + " " + request.getUrl().replaceAll("\\?.*", "")).toList();
        assertTrue(calls.indexOf("GET " + API + "/messages") > calls.indexOf("POST " + API + "/prescriber-read"), () -> "read, then marked: " + calls);
    }

    @Test
    void aLongThreadIsReadToItsEnd() {
        Map<String, Object> conversation = conversation(FIRST, "Jo Bloggs", "2030-03-01T09:40:00Z", 0);
        Neighbours.gateway().stubFor(get(urlPathEqualTo(API + "/messages")).withQueryParam("cursor", absent())
                .willReturn(okJson(json(Conversations.thread(conversation, List.of(message(ASKED, "patient", "First", "2030-03-01T09:00:00Z")), "c1")))));
        Neighbours.gateway().stubFor(get(urlPathEqualTo(API + "/messages")).withQueryParam("cursor", equalTo("c1"))
                .willReturn(okJson(json(Conversations.thread(conversation, List.of(message(ANSWERED, "prescriber", "Second", "2030-03-01T09:10:00Z")), null)))));
        Document page = page(as(ConsoleCalls.prescriber()).get(PAGE), 200);
        assertEquals(List.of("First", "Second"), page.select("li.message .message-text").eachText());
        Neighbours.gateway().verify(0, postRequestedFor(urlPathEqualTo(API + "/prescriber-read")));
    }

    @Test
    void supportMayHandOffButNotReplyAttachOrMarkRead() {
        thread(2);
        Document page = page(as(ConsoleCalls.support()).get(PAGE), 200);
        assertEquals(3, page.select("form.handoff-form").size());
        assertNull(page.selectFirst("form[action$=/reply]"));
        assertNull(page.selectFirst("form[action$=/attach]"));
        Neighbours.gateway().verify(0, postRequestedFor(anyUrl()));
    }

    @Test
    void anAdministratorGetsTheForbiddenPageAndNothingIsAsked() {
        assertEquals("You do not have access to this page.", page(as(ConsoleCalls.admin()).get(PAGE), 403).selectFirst("h1 + p").text());
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void anUnknownConversationIsThe404Page() {
        refused(get(urlPathMatching("/ops/v1/conversations/.*/messages")), 404, "{\"error\":\"Conversation not found\"}");
        assertEquals("Conversation not found", page(as(ConsoleCalls.support()).get("/console/conversations/nope"), 404).selectFirst("h1").text());
        refused(post(urlPathMatching("/ops/v1/conversations/.*/prescriber-messages")), 404, "{\"error\":\"Conversation not found\"}");
        TestSession session = ConsoleCalls.prescriber();
        page(formAs(session).formParam("csrf", session.csrf()).formParam("text", "Hi").post("/console/conversations/nope/reply"), 404);
    }

    @Test
    void eachDoneNoticeIsShown() {
        thread(0);
        Map.of("sent", "Sent", "attached", "Attached", "handed-off", "Handed off").forEach((done, text) -> assertEquals(text,
                page(as(ConsoleCalls.prescriber()).get(PAGE + "?done=" + done), 200).selectFirst("p[role=status]#notice").text()));
        assertNull(page(as(ConsoleCalls.prescriber()).get(PAGE + "?done=other"), 200).selectFirst("#notice"));
    }

    @Test
    void aReplySendsTheTextAsTypedAndLeadsBack() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo(API + "/prescriber-messages")).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json").withBody("{\"message\":{}}")));
        TestSession session = ConsoleCalls.prescriber();
        assertSeeOther(formAs(session).formParam("csrf", session.csrf()).formParam("text", " Take it <b>with</b> food.\nBye ").post(PAGE + "/reply"),
                PAGE + "?done=sent");
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo(API + "/prescriber-messages"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN))
                .withRequestBody(equalToJson("{\"text\":\" Take it <b>with</b> food.\\nBye \"}")));
    }

    @Test
    void theGatewaysIssuesAboutTheReplyAreShownNextToItWithTheTextKept() {
        thread(0);
        refused(post(urlPathEqualTo(API + "/prescriber-messages")), 400,
                "{\"error\":[{\"code\":\"too_big\",\"path\":[\"text\"],\"message\":\"String must contain at most 5000 character(s)\"}]}");
        TestSession session = ConsoleCalls.prescriber();
        Document page = page(formAs(session).formParam("csrf", session.csrf()).formParam("text", "Too long").post(PAGE + "/reply"), 400);
        assertEquals("Error: Conversation - Console", page.title());
        assertEquals("String must contain at most 5000 character(s)", page.selectFirst("p.field-error#error-text").text());
        Element text = page.selectFirst("textarea#text");
        assertEquals("true", text.attr("aria-invalid"));
        assertEquals("error-text", text.attr("aria-describedby"));
        assertEquals("Too long", text.wholeText());
        assertNull(page.selectFirst("#form-error"));
    }

    @Test
    void aHandOffSendsTheCategoryAndTheNoteOnlyWhenGiven() {
        Neighbours.gateway().stubFor(post(urlPathMatching(API + "/messages/.*/handoff")).willReturn(okJson("{\"message\":{}}")));
        TestSession session = ConsoleCalls.support();
        assertSeeOther(formAs(session).formParam("csrf", session.csrf()).formParam("category", "billing").formParam("note", " Refund asked ")
                .post(HANDOFF), PAGE + "?done=handed-off");
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo(API + "/messages/" + ASKED + "/handoff"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN))
                .withRequestBody(equalToJson("{\"category\":\"billing\",\"note\":\"Refund asked\"}")));
        Neighbours.reset();
        Neighbours.gateway().stubFor(post(urlPathMatching(API + "/messages/.*/handoff")).willReturn(okJson("{\"message\":{}}")));
        TestSession prescriber = ConsoleCalls.prescriber();
        assertSeeOther(formAs(prescriber).formParam("csrf", prescriber.csrf()).formParam("category", "orders").formParam("note", "")
                .post(HANDOFF), PAGE + "?done=handed-off");
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo(API + "/messages/" + ASKED + "/handoff"))
                .withRequestBody(equalToJson("{\"category\":\"orders\"}")));
    }

    @Test
    void aHandOffsIssuesAreShownNextToItsFieldsAndARefusalAboutNoFieldAsTheFormsError() {
        thread(0);
        refused(post(urlPathMatching(API + "/messages/.*/handoff")), 400, "{\"error\":["
                + "{\"code\":\"invalid_enum_value\",\"path\":[\"category\"],\"message\":\"Invalid enum value\"},"
                + "{\"code\":\"too_big\",\"path\":[\"note\"],\"message\":\"String must contain at most 500 character(s)\"}]}");
        TestSession session = ConsoleCalls.support();
        Document page = page(formAs(session).formParam("csrf", session.csrf()).formParam("category", "").formParam("note", "A long note")
                .post(HANDOFF), 400);
        Element form = page.selectFirst("li[data-message-id=" + ASKED + "] form");
        assertEquals("Invalid enum value", form.selectFirst("p.field-error#error-category").text());
        assertEquals("String must contain at most 500 character(s)", form.selectFirst("p.field-error#error-note").text());
        assertEquals("error-category", form.selectFirst("select").attr("aria-describedby"));
        assertEquals("true", form.selectFirst("input[name=note]").attr("aria-invalid"));
        assertEquals("A long note", form.selectFirst("input[name=note]").val());
        assertEquals(1, page.select(".field-error#error-category").size(), "only the form that was posted");

        refused(post(urlPathMatching(API + "/messages/.*/handoff")), 400, "{\"error\":\"Only patient messages can be handed off\"}");
        page = page(formAs(session).formParam("csrf", session.csrf()).formParam("category", "account").post(HANDOFF), 400);
        assertEquals("Only patient messages can be handed off", page.selectFirst("p[role=alert]#form-error").text());
        assertEquals("account", page.selectFirst("li[data-message-id=" + ASKED + "] option[selected]").val());
    }

    @Test
    void anAttachmentIsSentAsItsOneFilePart() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo(API + "/prescriber-attachments")).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json").withBody("{\"message\":{}}")));
        TestSession session = ConsoleCalls.prescriber();
        assertSeeOther(multipart(session, session.csrf()).multiPart("file", "care plan.pdf", "%PDF-1.4 plan".getBytes(StandardCharsets.UTF_8),
                "application/pdf").post(PAGE + "/attach"), PAGE + "?done=attached");
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo(API + "/prescriber-attachments"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN))
                .withHeader("Content-Type", containing("multipart/form-data"))
                .withAnyRequestBodyPart(aMultipart().withName("file").withHeader("Content-Disposition", containing("filename=\"care plan.pdf\""))
                        .withHeader("Content-Type", containing("application/pdf")).withBody(equalTo("%PDF-1.4 plan"))));
        List<ServeEvent> events = Neighbours.gateway().getAllServeEvents();
        assertEquals(1, events.get(0).getRequest().getParts().size(), "the file alone: no form token");

        // Past the pages' former 2 MB body limit: an attachment may be 10 MiB.
        byte[] scan = new byte[3_000_000];
        java.util.Arrays.fill(scan, (byte) 7);
        assertSeeOther(multipart(session, session.csrf()).multiPart("file", "scan.png", scan, "image/png").post(PAGE + "/attach"),
                PAGE + "?done=attached");
        assertEquals(3_000_000, Neighbours.gateway().getAllServeEvents().get(0).getRequest().getPart("file").getBody().asBytes().length);
    }

    @Test
    void theAttachmentsRefusalsAreShownNextToTheField() {
        thread(0);
        refused(post(urlPathEqualTo(API + "/prescriber-attachments")), 413, "{\"error\":\"File too large\"}");
        TestSession session = ConsoleCalls.prescriber();
        Document page = page(multipart(session, session.csrf()).multiPart("file", "big.pdf", new byte[] {1, 2, 3}, "application/pdf")
                .post(PAGE + "/attach"), 413);
        assertEquals("File too large", page.selectFirst("p.field-error#error-file").text());
        assertEquals("error-file", page.selectFirst("input#file").attr("aria-describedby"));
        refused(post(urlPathEqualTo(API + "/prescriber-attachments")), 400, "{\"error\":\"File type not allowed\"}");
        page = page(multipart(session, session.csrf()).multiPart("file", "run.exe", new byte[] {1}, "application/x-msdownload")
                .post(PAGE + "/attach"), 400);
        assertEquals("File type not allowed", page.selectFirst("#error-file").text());
    }

    @Test
    void noFileIsAskedForAndNothingIsSent() {
        thread(0);
        TestSession session = ConsoleCalls.prescriber();
        Document page = page(multipart(session, session.csrf()).multiPart("file", "", new byte[0], "application/octet-stream")
                .post(PAGE + "/attach"), 400);
        assertEquals("Select a file", page.selectFirst("#error-file").text());
        page = page(multipart(session, session.csrf()).post(PAGE + "/attach"), 400);
        assertEquals("Select a file", page.selectFirst("#error-file").text());
        Neighbours.gateway().verify(0, postRequestedFor(urlPathEqualTo(API + "/prescriber-attachments")));
    }

    @Test
    void aFormWithoutItsTokenOrByARoleThatMayNotIsRefusedAndNothingIsAsked() {
        TestSession prescriber = ConsoleCalls.prescriber();
        TestSession support = ConsoleCalls.support();
        String expired = "This form has expired. Reload the page and try again.";
        String forbidden = "You do not have access to this page.";
        assertEquals(expired, page(formAs(prescriber).formParam("text", "Hi").post(PAGE + "/reply"), 403).selectFirst("h1 + p").text());
        assertEquals(expired, page(formAs(prescriber).formParam("csrf", support.csrf()).formParam("category", "other").post(HANDOFF), 403)
                .selectFirst("h1 + p").text());
        assertEquals(expired, page(multipart(prescriber, "nope").multiPart("file", "a.pdf", new byte[] {1}, "application/pdf")
                .post(PAGE + "/attach"), 403).selectFirst("h1 + p").text());
        assertEquals(expired, page(multipart(prescriber, null).multiPart("file", "a.pdf", new byte[] {1}, "application/pdf")
                .post(PAGE + "/attach"), 403).selectFirst("h1 + p").text());
        assertEquals(forbidden, page(formAs(support).formParam("csrf", support.csrf()).formParam("text", "Hi").post(PAGE + "/reply"), 403)
                .selectFirst("h1 + p").text());
        assertEquals(forbidden, page(multipart(support, support.csrf()).multiPart("file", "a.pdf", new byte[] {1}, "application/pdf")
                .post(PAGE + "/attach"), 403).selectFirst("h1 + p").text());
        TestSession admin = ConsoleCalls.admin();
        assertEquals(forbidden, page(formAs(admin).formParam("csrf", admin.csrf()).formParam("category", "other").post(HANDOFF), 403)
                .selectFirst("h1 + p").text());
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void theGatewaysRefusalIsTheForbiddenPage() {
        refused(post(urlPathEqualTo(API + "/prescriber-messages")), 403, "{\"error\":\"Forbidden\"}");
        TestSession session = ConsoleCalls.prescriber();
        assertEquals("You do not have access to this page.", page(formAs(session).formParam("csrf", session.csrf()).formParam("text", "Hi")
                .post(PAGE + "/reply"), 403).selectFirst("h1 + p").text());
    }
}
