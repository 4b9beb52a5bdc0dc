package com.telemed.billing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.billing.ledger.Ledger;
import com.telemed.billing.ledger.LedgerEvent;
import com.telemed.testkit.kafka.BillingEvents;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Applies envelopes as one consumed batch: the consumers' own transaction ({@link Ledger#apply}), without the broker. */
public final class LedgerFixture {

    private LedgerFixture() {
    }

    public static void apply(Ledger ledger, ObjectMapper json, BillingEvents.Envelope... envelopes) {
        List<LedgerEvent> events = new ArrayList<>();
        for (BillingEvents.Envelope envelope : envelopes) {
            try {
                events.add(json.readValue(envelope.json(), LedgerEvent.class));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        ledger.apply(events);
    }
}
