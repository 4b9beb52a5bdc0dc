package com.telemed.webhook.events;

import static com.telemed.common.json.JsonFields.string;
import static com.telemed.common.json.JsonFields.timestamp;

import com.fasterxml.jackson.core.JsonGenerator;
import com.telemed.common.json.OneBufferJsonWriter;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;

/**
 * A page of {@code GET /v1/events} written field by field with a streaming generator (issue 44): what the
 * service's ObjectMapper writes for {@link EventsViews.Page} (the records' order, nulls written, each event's
 * {@code data} as its stored JSON text, {@link com.telemed.common.json.JsonFields} for nulls, ids and instants), without its per-call serializer lookups
 * and reflection over some 700 values a page of 100. {@code EventPageWriterTest} holds it to the ObjectMapper's bytes.
 */
@Provider
@Produces(MediaType.APPLICATION_JSON)
public class EventPageWriter extends OneBufferJsonWriter<EventsViews.Page> {

    /** A page of 100 is about 50 KB: one buffer of that order, grown in segments when larger. */
    public EventPageWriter() {
        super(EventsViews.Page.class, 64 * 1024);
    }

    @Override
    protected void write(EventsViews.Page page, JsonGenerator json) throws IOException {
        json.writeStartObject();
        json.writeArrayFieldStart("events");
        for (EventsViews.Event event : page.events()) {
            json.writeStartObject();
            string("id", event.id() == null ? null : event.id().toString(), json);
            string("type", event.type(), json);
            timestamp("createdAt", event.createdAt(), json);
            json.writeFieldName("data");
            if (event.data() == null) {
                json.writeNull();
            } else {
                json.writeRawValue(event.data());
            }
            EventsViews.Delivery delivery = event.delivery();
            json.writeFieldName("delivery");
            if (delivery == null) {
                json.writeNull();
            } else {
                json.writeStartObject();
                string("status", delivery.status(), json);
                json.writeNumberField("attempts", delivery.attempts());
                timestamp("lastAttemptAt", delivery.lastAttemptAt(), json);
                json.writeEndObject();
            }
            json.writeEndObject();
        }
        json.writeEndArray();
        string("nextCursor", page.nextCursor(), json);
        json.writeBooleanField("hasMore", page.hasMore());
        json.writeEndObject();
    }
}
