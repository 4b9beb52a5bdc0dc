package com.telemed.webhook.events;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.telemed.common.json.Timestamps;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.time.Instant;
import java.time.LocalDate;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveResourceInfo;
import org.jboss.resteasy.reactive.server.spi.ServerMessageBodyWriter;
import org.jboss.resteasy.reactive.server.spi.ServerRequestContext;

/**
 * A page of {@code GET /v1/events} written field by field with a streaming generator (issue 44): what the
 * service's ObjectMapper writes for {@link EventsViews.Page} (the records' order, nulls written, each event's
 * {@code data} as its stored JSON text, {@link Timestamps} for instants), without its per-call serializer lookups
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

    private static void string(String name, String value, JsonGenerator json) throws IOException {
        json.writeFieldName(name);
        if (value == null) {
            json.writeNull();
        } else {
            json.writeString(value);
        }
    }

    /**
     * {@link Timestamps#format}'s text ({@code yyyy-MM-dd'T'HH:mm:ss.SSS'Z'}, UTC, milliseconds truncated) written
     * from the instant's fields, without a formatter: a page writes up to 200 of them. A year outside 1 to 9999 (never
     * stored; {@code yyyy} is the year of era) goes through {@link Timestamps#format} itself.
     */
    static void timestamp(String name, Instant instant, JsonGenerator json) throws IOException {
        json.writeFieldName(name);
        if (instant == null) {
            json.writeNull();
            return;
        }
        long seconds = instant.getEpochSecond();
        LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(seconds, 86_400L));
        int year = date.getYear();
        if (year < 1 || year > 9999) {
            json.writeString(Timestamps.format(instant));
            return;
        }
        int second = (int) Math.floorMod(seconds, 86_400L);
        char[] text = new char[24];
        digits(text, 0, year, 4);
        text[4] = '-';
        digits(text, 5, date.getMonthValue(), 2);
        text[7] = '-';
        digits(text, 8, date.getDayOfMonth(), 2);
        text[10] = 'T';
        digits(text, 11, second / 3600, 2);
        text[13] = ':';
        digits(text, 14, second / 60 % 60, 2);
        text[16] = ':';
        digits(text, 17, second % 60, 2);
        text[19] = '.';
        digits(text, 20, instant.getNano() / 1_000_000, 3);
        text[23] = 'Z';
        json.writeString(text, 0, text.length);
    }

    private static void digits(char[] text, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            text[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

}
