package com.telemed.webhook.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class EnvelopesTest {

    @Test
    void cutsTheWebhookTextOutExactly() {
        // Key order, spacing inside the payload, number forms and escapes are kept as published.
        String webhook = "{\"event\":\"item.approved\",\"n\":1.50,\"e\":1e3,\"nested\":{\"event\":\"x\",\"a\":[1,{\"b\":null}]},"
                + "\"patientName\":\"Zo\\u00eb \\\"Q\\\" Ångström\", \"timestamp\":\"2026-11-21T09:30:00.000Z\"}";
        String envelope = "{\"id\":\"e-1\",\"type\":\"item.approved\",\"partnerId\":\"p-1\",\"occurredAt\":\"2026-11-21T09:30:00.000Z\","
                + "\"subject\":{\"requestId\":\"r\"},\"data\":{\"webhook\":{\"event\":\"not this\"}},\"webhook\":" + webhook + "}";
        Envelopes.Read read = Envelopes.read(envelope);
        assertEquals(webhook, read.webhook().body());
        assertEquals("e-1", read.webhook().eventId());
        assertEquals("p-1", read.webhook().partnerId());
        assertEquals("item.approved", read.webhook().event());
    }

    @Test
    void webhookBeforeOtherKeysAndWithoutEvent() {
        Envelopes.Read read = Envelopes.read("{\"webhook\":{\"x\":1},\"id\":\"e\",\"partnerId\":\"p\",\"type\":\"t.x\"}");
        assertEquals("{\"x\":1}", read.webhook().body());
        assertEquals("t.x", read.webhook().event());
    }

    @Test
    void internalOnlyEventsAreSkipped() {
        Envelopes.Read read = Envelopes.read("{\"id\":\"e\",\"type\":\"member.created\",\"partnerId\":\"p\",\"webhook\":null}");
        assertNull(read.webhook());
        assertEquals(Envelopes.Skip.NO_WEBHOOK, read.skip());
        assertEquals(Envelopes.Skip.NO_WEBHOOK, Envelopes.read("{\"id\":\"e\",\"partnerId\":\"p\"}").skip());
    }

    @Test
    void malformedEnvelopesAreSkipped() {
        for (String bad : new String[] {"not json", "[1,2]", "{\"id\":\"e\",\"partnerId\":\"p\",\"webhook\":\"text\"}",
                "{\"partnerId\":\"p\",\"webhook\":{}}", "{\"id\":\"e\",\"webhook\":{}}", "{\"id\":\"e\",\"partnerId\":\"p\",\"webhook\":{"}) {
            assertEquals(Envelopes.Skip.MALFORMED, Envelopes.read(bad).skip(), bad);
        }
    }
}
