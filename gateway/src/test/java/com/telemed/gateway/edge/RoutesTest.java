package com.telemed.gateway.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class RoutesTest {

    @Test
    void webhookSecretMaintenanceIsAnOperatorCallOfWebhookService() {
        Optional<Routes.Route> expected = Optional.of(new Routes.Route(Surface.OPS, Upstream.WEBHOOK));
        assertEquals(expected, Routes.resolve("/ops/v1/webhook-secrets/re-encrypt"));
        assertEquals(expected, Routes.resolve("/ops/v1/webhook-secrets"));
        assertEquals(Optional.empty(), Routes.resolve("/ops/v1/webhook-secretsx"));
        assertEquals(Optional.empty(), Routes.resolve("/v1/webhook-secrets/re-encrypt"));
    }
}
