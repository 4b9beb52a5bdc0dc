package com.telemed.gateway.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RoutesTest {

    private static final String TOKEN = "q3V0b2tlbi1hdHRhY2htZW50LWxpbmstNDMtY2hhcnM";

    @Test
    void webhookSecretMaintenanceIsAnOperatorCallOfWebhookService() {
        Optional<Routes.Route> expected = Optional.of(new Routes.Route(Surface.OPS, Upstream.WEBHOOK));
        assertEquals(expected, Routes.resolve("/ops/v1/webhook-secrets/re-encrypt"));
        assertEquals(expected, Routes.resolve("/ops/v1/webhook-secrets"));
        assertEquals(Optional.empty(), Routes.resolve("/ops/v1/webhook-secretsx"));
        assertEquals(Optional.empty(), Routes.resolve("/v1/webhook-secrets/re-encrypt"));
    }

    /** partner-extensions.md, "Webhook settings, self-service": the partner's own URL and secret, webhook-service's. */
    @Test
    void thePartnersOwnWebhookSettingsArePartnerCallsOfWebhookService() {
        Optional<Routes.Route> expected = Optional.of(new Routes.Route(Surface.PARTNER, Upstream.WEBHOOK));
        assertEquals(expected, Routes.resolve("/v1/webhook"));
        assertEquals(expected, Routes.resolve("/v1/webhook/secret/rotate"));
        for (String path : List.of("/v1/webhooks", "/v1/webhook-settings", "/v2/webhook", "/ops/v1/webhook")) {
            assertEquals(Optional.empty(), Routes.resolve(path), path);
        }
        assertEquals(Optional.of("/v1/webhook"), Routes.template("/v1/webhook"));
        assertEquals(Optional.of("/v1/webhook/**"), Routes.template("/v1/webhook/secret/rotate"));
    }

    @Test
    void billingSettingsAndTheLedgerRebuildAreOperatorCallsOfBillingService() {
        Optional<Routes.Route> billing = Optional.of(new Routes.Route(Surface.OPS, Upstream.BILLING));
        assertEquals(billing, Routes.resolve("/ops/v1/partners/p1/billing"));
        assertEquals(billing, Routes.resolve("/ops/v1/partners/p1/billing/rebuild"));
        assertEquals(Optional.empty(), Routes.resolve("/ops/v1/partners/p1/billing/other"));
        assertEquals(Optional.empty(), Routes.resolve("/ops/v1/partners/p1/billing/rebuild/x"));
        assertEquals(Optional.of(new Routes.Route(Surface.PARTNER, Upstream.BILLING)), Routes.resolve("/v1/billing"));
    }

    /** Issue 45: the partner settings the edge checks the partner of before forwarding; the gateway's own look it up themselves. */
    @Test
    void aForwardedPartnerSettingNamesItsPartner() {
        String id = "7c1f4e2a-0000-4000-8000-000000000001";
        for (String setting : List.of("/webhook", "/webhook/secret/rotate", "/webhook/deliveries", "/webhook/deliveries/d1/redeliver",
                "/drug-access", "/fulfilment", "/billing", "/billing/rebuild")) {
            assertEquals(Optional.of(id), Routes.forwardedPartnerSetting("/ops/v1/partners/" + id + setting), setting);
            assertEquals(Optional.of("not-a-partner"), Routes.forwardedPartnerSetting("/ops/v1/partners/not-a-partner" + setting), setting);
        }
        for (String path : List.of("/ops/v1/partners", "/ops/v1/partners/" + id, "/ops/v1/partners/" + id + "/",
                "/ops/v1/partners/" + id + "/api-key/rotate", "/ops/v1/partners/" + id + "/embed-origins",
                "/ops/v1/partners/" + id + "/other", "/ops/v1/partners//webhook", "/ops/v1/drugs/" + id, "/v1/billing")) {
            assertEquals(Optional.empty(), Routes.forwardedPartnerSetting(path), path);
        }
    }

    /** Events from a cursor, their redelivery and the test webhook (partner-extensions.md, Events) are webhook-service's, with the API key. */
    @Test
    void eventsAndTheTestWebhookArePartnerCallsOfWebhookService() {
        Optional<Routes.Route> webhook = Optional.of(new Routes.Route(Surface.PARTNER, Upstream.WEBHOOK));
        assertEquals(webhook, Routes.resolve("/v1/events"));
        assertEquals(webhook, Routes.resolve("/v1/events/8d5b7a1e-3f0c-4e8e-9a57-1c0f2b7d9e11"));
        assertEquals(webhook, Routes.resolve("/v1/events/8d5b7a1e-3f0c-4e8e-9a57-1c0f2b7d9e11/redeliver"));
        assertEquals(webhook, Routes.resolve("/v1/webhooks/test"));
        assertEquals(Optional.empty(), Routes.resolve("/v1/eventsx"));
        assertEquals(Optional.of("/v1/events/**"), Routes.template("/v1/events/8d5b7a1e-3f0c-4e8e-9a57-1c0f2b7d9e11/redeliver"));
        assertEquals(Optional.of("/v1/webhooks/**"), Routes.template("/v1/webhooks/test"));
    }

    @Test
    void anAttachmentLinkIsPublicAndMessagingsOnlyInItsExactShape() {
        Optional<Routes.Route> expected = Optional.of(new Routes.Route(Surface.PUBLIC, Upstream.MESSAGING));
        assertEquals(expected, Routes.resolve("/attachments/" + TOKEN + "/scan%20report.pdf"));
        assertEquals(expected, Routes.resolve("/attachments/t/f"));
        for (String path : List.of("/attachments", "/attachments/", "/attachments/" + TOKEN, "/attachments/" + TOKEN + "/",
                "/attachments//scan.pdf", "/attachments/" + TOKEN + "/scan.pdf/", "/attachments/" + TOKEN + "/scan.pdf/x",
                "/Attachments/" + TOKEN + "/scan.pdf", "/v1/attachments/" + TOKEN + "/scan.pdf")) {
            assertEquals(Optional.empty(), Routes.resolve(path), path);
        }
        // The upload routes keep their surfaces.
        assertEquals(Optional.of(new Routes.Route(Surface.PARTNER, Upstream.MESSAGING)),
                Routes.resolve("/v1/messages/conversations/c1/attachments"));
        assertEquals(Optional.of(new Routes.Route(Surface.OPS, Upstream.MESSAGING)),
                Routes.resolve("/ops/v1/conversations/c1/prescriber-attachments"));
    }

    /** Issue #39: the platform's pages, web-service's, with no credential; and the gateway's own internal endpoint. */
    @Test
    void thePagesAreWebServicesAndTheInternalEndpointTheGatewaysOwn() {
        Optional<Routes.Route> page = Optional.of(new Routes.Route(Surface.PAGE, Upstream.WEB));
        for (String path : List.of("/book", "/book/" + TOKEN, "/book/" + TOKEN + "/cancel", "/surveys/intake-1", "/surveys/t/" + TOKEN,
                "/assets/web/style.css", "/console", "/console/queue")) {
            assertEquals(page, Routes.resolve(path), path);
        }
        for (String path : List.of("/booking", "/surveysx", "/assetsx/a", "/consoles", "/Book/x", "/web/book/x")) {
            assertEquals(Optional.empty(), Routes.resolve(path), path);
        }
        assertEquals(Optional.of(new Routes.Route(Surface.PARTNER, Upstream.REQUESTS)), Routes.resolve("/v1/surveys/v2/lookup"));
        // Sandbox simulation (issue #42): requests-service's, which answers it 404 in production.
        assertEquals(Optional.of(new Routes.Route(Surface.PARTNER, Upstream.REQUESTS)),
                Routes.resolve("/v1/sandbox/requests/8d5b7a1e-3f0c-4e8e-9a57-1c0f2b7d9e11/simulate"));
        assertEquals(Optional.of("/v1/sandbox/**"), Routes.template("/v1/sandbox/requests/8d5b7a1e-3f0c-4e8e-9a57-1c0f2b7d9e11/simulate"));
        assertEquals(Optional.empty(), Routes.resolve("/v1/sandboxes"));

        assertEquals(Optional.of(new Routes.Route(Surface.INTERNAL, Upstream.GATEWAY)),
                Routes.resolve("/internal/partners/7c1f4e2a-0000-4000-8000-000000000001/embed-origins"));
        for (String path : List.of("/internal/partners/p1", "/internal/partners/p1/embed-origins/x", "/internal/partners//embed-origins",
                "/internal/partners/p1/webhook", "/internal/members/m1")) {
            assertEquals(Optional.empty(), Routes.resolve(path), path);
        }

        assertTrue(Routes.isSurveyPage("/surveys/intake-1"));
        for (String path : List.of("/surveys", "/surveys/", "/surveys/t/" + TOKEN, "/surveys/intake-1/", "/v1/surveys/intake-1")) {
            assertFalse(Routes.isSurveyPage(path), path);
        }
    }

    @Test
    void aRoutedPathIsNamedInMetricsByItsRoutingEntryNeverByItsIds() {
        assertEquals(Optional.of("/v1/requests"), Routes.template("/v1/requests"));
        assertEquals(Optional.of("/v1/requests/**"), Routes.template("/v1/requests/8d5b7a1e-3f0c-4e8e-9a57-1c0f2b7d9e11/items/x"));
        assertEquals(Optional.of("/v2/embed/**"), Routes.template("/v2/embed/requests"));
        assertEquals(Optional.of("/ops/v1/review/**"), Routes.template("/ops/v1/review/queue"));
        assertEquals(Optional.of("/attachments/{token}/{fileName}"), Routes.template("/attachments/" + TOKEN + "/scan.pdf"));
        assertEquals(Optional.of("/ops/v1/partners"), Routes.template("/ops/v1/partners"));
        assertEquals(Optional.of("/ops/v1/partners/{partnerId}"), Routes.template("/ops/v1/partners/p1"));
        assertEquals(Optional.of("/ops/v1/partners/{partnerId}/billing/rebuild"), Routes.template("/ops/v1/partners/p1/billing/rebuild"));
        assertEquals(Optional.of("/ops/v1/partners/{partnerId}/api-key/rotate"), Routes.template("/ops/v1/partners/p1/api-key/rotate"));
        assertEquals(Optional.of("/ops/v1/partners/{partnerId}/webhook"), Routes.template("/ops/v1/partners/p1/webhook"));
        assertEquals(Optional.of("/ops/v1/partners/{partnerId}/webhook/**"), Routes.template("/ops/v1/partners/p1/webhook/deliveries/d1"));
        assertEquals(Optional.of("/openapi.json"), Routes.template("/openapi.json"));
        assertEquals(Optional.of("/ops/openapi.yaml"), Routes.template("/ops/openapi.yaml"));
        assertEquals(Optional.of("/docs"), Routes.template("/docs"));
        assertEquals(Optional.of("/docs/**"), Routes.template("/docs/reference.css"));
        assertEquals(Optional.of("/book/**"), Routes.template("/book/" + TOKEN));
        assertEquals(Optional.of("/surveys/**"), Routes.template("/surveys/t/" + TOKEN));
        assertEquals(Optional.of("/assets/**"), Routes.template("/assets/web/app.js"));
        assertEquals(Optional.of("/console"), Routes.template("/console"));
        assertEquals(Optional.of("/internal/partners/{partnerId}/embed-origins"),
                Routes.template("/internal/partners/7c1f4e2a-0000-4000-8000-000000000001/embed-origins"));
        for (String unrouted : List.of("/internal/members/m1", "/q/metrics", "/docs/a/b", "/openapi.xml", "/ops/v1/partners/p1/other", "/v1/requestsx", "/")) {
            assertEquals(Optional.empty(), Routes.template(unrouted), unrouted);
        }
    }
}
