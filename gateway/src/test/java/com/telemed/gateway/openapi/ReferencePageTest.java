package com.telemed.gateway.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

/**
 * The reference page ({@code /docs}) as {@link ReferencePage} renders the served partner document:
 * nothing a strict Content-Security-Policy refuses (no script, no inline style), only this gateway's
 * stylesheet and icon, every operation, webhook, shared response and schema of the document in its
 * place, every in-page link landing on an element, and descriptions' Markdown with its raw HTML escaped.
 * The browser's view (no console error, axe-core, 375 px) is e2e's {@code ReferencePageIT}.
 */
class ReferencePageTest {

    private static final OpenApiDocuments.Document PARTNER = OpenApiDocuments.partner();
    private static final Document PAGE = Jsoup.parse(new String(ReferencePage.render(PARTNER.tree()), StandardCharsets.UTF_8));
    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "patch", "head", "options", "trace");

    @Test
    void thePageHasNothingAStrictPolicyRefusesAndLoadsOnlyItsStylesheetAndIcon() {
        assertEquals(List.of(), PAGE.select("script, style, iframe, object, embed, img, form").eachAttr("outerHTML"));
        List<String> offending = new ArrayList<>();
        for (Element element : PAGE.getAllElements()) {
            element.attributes().forEach(attribute -> {
                if (attribute.getKey().equals("style") || attribute.getKey().startsWith("on")
                        || attribute.getValue().toLowerCase().startsWith("javascript:")) {
                    offending.add(element.tagName() + " " + attribute);
                }
            });
        }
        assertEquals(List.of(), offending);
        assertEquals(List.of(ReferencePage.STYLESHEET, ReferencePage.ICON), PAGE.select("link[href]").eachAttr("href"));
        assertEquals(List.of("stylesheet", "icon"), PAGE.select("link[href]").eachAttr("rel"));
        assertEquals("en", PAGE.selectFirst("html").attr("lang"));
        assertEquals("width=device-width, initial-scale=1", PAGE.selectFirst("meta[name=viewport]").attr("content"));
        assertEquals("Telemedicine prescription service - partner API - reference", PAGE.title());
        assertEquals("Telemedicine prescription service - partner API", PAGE.selectFirst("h1").text());
        assertEquals("Version 1.0, OpenAPI 3.1.0. The document itself: openapi.json, openapi.yaml.", PAGE.selectFirst(".about").text());
        // Nothing of the page but links leaves this origin, and those only from the document's own descriptions.
        for (Element link : PAGE.select("a[href]")) {
            String href = link.attr("href");
            assertTrue(href.startsWith("#") || href.equals("/openapi.json") || href.equals("/openapi.yaml"), href);
        }
    }

    @Test
    void everyOperationIsAClosedEntryUnderItsTagWithItsMethodPathAndSummary() {
        JsonNode paths = PARTNER.tree().path("paths");
        List<String> expected = new ArrayList<>();
        paths.fields().forEachRemaining(path -> METHODS.forEach(method -> {
            JsonNode operation = path.getValue().get(method);
            if (operation != null) {
                String summary = operation.path("summary").asText("");
                expected.add((method.toUpperCase() + " " + path.getKey() + " " + summary).strip());
            }
        }));
        List<String> shown = new ArrayList<>();
        for (Element operation : PAGE.select("section:not([aria-labelledby=webhooks]) > details.operation")) {
            assertFalse(operation.hasAttr("open"), operation.id());
            shown.add(operation.selectFirst("summary").text());
        }
        assertEquals(expected.stream().sorted().toList(), shown.stream().sorted().toList());
        assertTrue(shown.size() >= 56, "" + shown.size());

        Element create = PAGE.getElementById("operation-createRequest");
        assertEquals("POST /v1/requests Create a prescription or consultation request", create.selectFirst("summary").text());
        assertEquals("tag-Requests", create.parent().selectFirst("h2").id());
        assertEquals("Requests", create.parent().selectFirst("h2").text());
        assertEquals("Credential: apiKey.", create.selectFirst(".credential").text());
        assertEquals("#credential-apiKey", create.selectFirst(".credential a").attr("href"));
        assertEquals(List.of("Parameters", "Request body (required)", "Responses"), create.select("h3").eachText());
        assertEquals("Idempotency-Key in header", create.selectFirst("dl.fields > dt").text());
        // The body's schema named and its fields listed in place.
        assertEquals("application/json: RequestCreate", create.selectFirst("h3 + p.type").text());
        assertEquals("array of RequestItemInput, at most 1 item", field(create, "items"));
        assertEquals("string (date-time)", field(create, "pharmacySendAt"));
        assertEquals("string, at least 1 character", field(create, "caseNotes"));
        // Each status, the shared ones linked to their entry; the contract's error strings as examples.
        Element responses = create.selectFirst("dl.responses");
        List<String> statuses = new ArrayList<>();
        PARTNER.tree().at("/paths/~1v1~1requests/post/responses").fieldNames().forEachRemaining(statuses::add);
        assertEquals(statuses, responses.select("> dt").eachText());
        assertEquals(List.of("200", "201", "400", "401"), statuses.subList(0, 4));
        assertEquals("API key missing or invalid (Unauthorized)", responses.select("> dd").get(3).text());
        assertEquals("#response-Unauthorized", responses.select("> dd").get(3).selectFirst("a").attr("href"));
        assertEquals("{\n  \"error\": \"Member not found\"\n}", responses.select("pre").stream().map(Element::wholeText)
                .filter(text -> text.contains("Member not found")).findFirst().orElseThrow());

        // The embed surface's credential, and an operation that needs none.
        assertEquals("Credential: publishableKey.", PAGE.getElementById("operation-embedGetSurvey").selectFirst(".credential").text());
        Element preflight = PAGE.getElementById("operation-options-v1-requests");
        assertEquals("OPTIONS /v1/requests CORS preflight", preflight.selectFirst("summary").text());
        assertEquals("Credential: none.", preflight.selectFirst(".credential").text());
    }

    @Test
    void everyWebhookSharedResponseAndSchemaHasItsEntry() {
        List<String> webhooks = new ArrayList<>();
        PARTNER.tree().path("webhooks").fieldNames().forEachRemaining(webhooks::add);
        assertEquals(webhooks.stream().map(name -> "POST " + name).toList(),
                PAGE.select("section[aria-labelledby=webhooks] > details.operation > summary").eachText());
        Element approved = PAGE.getElementById("webhook-item.approved");
        assertEquals(List.of("Headers", "Payload (required)", "Your answer"), approved.select("h3").eachText());
        assertEquals(List.of("X-Webhook-Timestamp in header required", "X-Webhook-Signature in header required",
                "X-Webhook-Id in header required", "User-Agent in header required"), approved.select("h3 + dl.fields > dt").eachText());
        assertEquals("string, exactly \"Service-Webhook/1.0\"", approved.select("h3 + dl.fields > dd").get(3).selectFirst(".type").text());

        List<String> responses = new ArrayList<>();
        PARTNER.tree().path("components").path("responses").fieldNames().forEachRemaining(name -> responses.add("response-" + name));
        assertEquals(responses, PAGE.select("section[aria-labelledby=responses] > .component").eachAttr("id"));
        List<String> schemas = new ArrayList<>();
        PARTNER.tree().path("components").path("schemas").fieldNames().forEachRemaining(name -> schemas.add("schema-" + name));
        assertEquals(schemas, PAGE.select("section[aria-labelledby=schemas] > .component").eachAttr("id"));
        // Shown open, each under its own heading, its fields listed.
        Element detail = PAGE.getElementById("schema-RequestDetail");
        assertEquals("RequestDetail", detail.selectFirst("h3").text());
        assertEquals("object", detail.selectFirst("h3 ~ p.type").text());
        assertEquals("API key missing or invalid", PAGE.getElementById("response-Unauthorized").selectFirst(".description").text());
    }

    @Test
    void everyInPageLinkLandsOnOneElementAndEveryIdIsOnce() {
        Set<String> ids = new HashSet<>();
        for (Element element : PAGE.select("[id]")) {
            assertTrue(ids.add(element.id()), "twice: " + element.id());
        }
        for (Element link : PAGE.select("a[href^=#]")) {
            assertTrue(ids.contains(link.attr("href").substring(1)), link.outerHtml());
        }
        for (Element labelled : PAGE.select("[aria-labelledby]")) {
            assertTrue(ids.contains(labelled.attr("aria-labelledby")), labelled.attr("aria-labelledby"));
        }
        // Every tag of the document is a section the contents link to, in the document's order.
        List<String> tags = new ArrayList<>();
        PARTNER.tree().path("tags").forEach(tag -> tags.add("#tag-" + ReferencePage.slug(tag.path("name").asText())));
        List<String> linked = PAGE.select("nav .contents a").eachAttr("href");
        assertEquals("#credentials", linked.get(0));
        assertEquals(tags, linked.subList(1, 1 + tags.size()));
        assertEquals(List.of("#webhooks", "#responses", "#schemas"), linked.subList(linked.size() - 3, linked.size()));
    }

    @Test
    void descriptionsAreMarkdownWithTheirHtmlEscaped() throws IOException {
        // The document's own: a code span with angle brackets stays text.
        Element send = PAGE.getElementById("operation-sendToPharmacy");
        assertTrue(send.select(".description code").eachText().contains("Fulfillment held <code> <reason>"),
                send.select(".description code").eachText().toString());
        // A description that tries HTML and a script link renders neither.
        JsonNode hostile = new ObjectMapper().readTree("""
                {"openapi": "3.1.0", "info": {"title": "T <b>", "version": "1",
                  "description": "**bold** [go](javascript:alert(1)) <img src=x onerror=alert(1)>\\n\\n<script>alert(1)</script>"},
                 "paths": {"/v1/x": {"get": {"summary": "<i>s</i>", "responses": {"200": {"description": "ok"}}}}},
                 "components": {"schemas": {"X": {"type": "object", "description": "<style>*{}</style>",
                   "properties": {"a": {"type": ["string", "null"], "enum": ["<x>", null]}}}}}}""");
        Document page = Jsoup.parse(new String(ReferencePage.render(hostile), StandardCharsets.UTF_8));
        assertEquals(List.of(), page.select("script, img, style, i, b:not(strong)").eachAttr("outerHTML"));
        assertEquals("T <b>", page.selectFirst("h1").text());
        assertEquals("bold", page.selectFirst(".description strong").text());
        assertEquals("", page.select(".description a").attr("href"));
        assertEquals("GET /v1/x <i>s</i>", page.selectFirst("summary").text());
        assertEquals("string or null, one of \"<x>\", null", page.getElementById("schema-X").selectFirst("dd .type").text());
        assertEquals(List.of(), page.select("#schema-X style"));
    }

    private static String field(Element within, String name) {
        for (Element term : within.select("dl.fields > dt")) {
            if (term.selectFirst("code").text().equals(name)) {
                return term.nextElementSibling().selectFirst(".type").text();
            }
        }
        throw new AssertionError("no field " + name);
    }
}
