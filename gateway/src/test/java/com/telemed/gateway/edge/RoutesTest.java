package com.telemed.gateway.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

    @Test
    void billingSettingsAndTheLedgerRebuildAreOperatorCallsOfBillingService() {
        Optional<Routes.Route> billing = Optional.of(new Routes.Route(Surface.OPS, Upstream.BILLING));
        assertEquals(billing, Routes.resolve("/ops/v1/partners/p1/billing"));
        assertEquals(billing, Routes.resolve("/ops/v1/partners/p1/billing/rebuild"));
        assertEquals(Optional.empty(), Routes.resolve("/ops/v1/partners/p1/billing/other"));
        assertEquals(Optional.empty(), Routes.resolve("/ops/v1/partners/p1/billing/rebuild/x"));
        assertEquals(Optional.of(new Routes.Route(Surface.PARTNER, Upstream.BILLING)), Routes.resolve("/v1/billing"));
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
}
