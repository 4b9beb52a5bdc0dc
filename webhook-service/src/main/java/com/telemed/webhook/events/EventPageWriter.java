package com.telemed.webhook.events;

import static com.telemed.common.json.JsonFields.string;
import static com.telemed.common.json.JsonFields.timestamp;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveResourceInfo;
import org.jboss.resteasy.reactive.server.spi.ServerMessageBodyWriter;
import org.jboss.resteasy.reactive.server.spi.ServerRequestContext;

/**
 * A page of {@code GET /v1/events} written field by field with a streaming generator (issue 44): what the
 * service's ObjectMapper writes for {@link EventsViews.Page} (the records' order, nulls written, each event's
 * {@code data} as its stored JSON text, {@link com.telemed.common.json.JsonFields} for nulls, ids and instants), without its per-call serializer lookups
 * and reflection over some 700 values a page of 100. {@code EventPageWriterTest} holds it to the ObjectMapper's bytes.
 */
@Provider
@Produces(MediaType.APPLICATION_JSON)
public class EventPageWriter implements ServerMessageBodyWriter<EventsViews.Page> {

    private static final JsonFactory JSON = new JsonFactory();

    @Override
    public boolean isWriteable(Class<?> type, Type genericType, ResteasyReactiveResourceInfo target, MediaType mediaType) {
        return type == EventsViews.Page.class;
    }

    @Override
    public boolean isWriteable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return type == EventsViews.Page.class;
    }

    /** The whole page in one buffer, ended with its {@code Content-Length}: no output stream, no chunks. */
    @Override
    public void writeResponse(EventsViews.Page page, Type genericType, ServerRequestContext context) throws IOException {
        context.serverResponse().end(bytes(page));
    }

    @Override
    public void writeTo(EventsViews.Page page, Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType,
                        MultivaluedMap<String, Object> headers, OutputStream out) throws IOException {
        out.write(bytes(page));
    }

    static byte[] bytes(EventsViews.Page page) throws IOException {
        // A page of 100 is about 50 KB: one buffer of that order, grown in segments when larger.
        ByteArrayBuilder buffer = new ByteArrayBuilder(64 * 1024);
        try (JsonGenerator json = JSON.createGenerator(buffer, JsonEncoding.UTF8)) {
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
        return buffer.toByteArray();
    }
}
