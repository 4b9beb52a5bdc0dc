package com.telemed.webhook.intake;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.Optional;

/**
 * Reads what webhook-service needs from an event envelope's JSON text
 * ({@code {id, type, partnerId, occurredAt, subject, data, webhook}}) with a streaming parser:
 * the {@code webhook} value is cut out of the text as it is, so the partner receives exactly the
 * bytes the publishing service serialised (no re-serialisation that could reorder keys or reformat numbers).
 */
public final class Envelopes {

    private static final JsonFactory JSON = new JsonFactory();

    /**
     * An envelope with a webhook payload. {@code event} is the payload's {@code event} (the
     * envelope {@code type} if the payload has none).
     */
    public record Webhook(String eventId, String partnerId, String event, String body) {

        @Override
        public String toString() {
            return "Webhook[" + eventId + "]";
        }
    }

    /** Why an envelope is not delivered. */
    public enum Skip { NO_WEBHOOK, MALFORMED }

    public record Read(Webhook webhook, Skip skip) {
    }

    private Envelopes() {
    }

    public static Read read(String text) {
        if (text == null) {
            return new Read(null, Skip.MALFORMED);
        }
        try (JsonParser parser = JSON.createParser(text)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return new Read(null, Skip.MALFORMED);
            }
            String id = null;
            String type = null;
            String partnerId = null;
            String body = null;
            String event = null;
            boolean webhookNull = true;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (name) {
                    case "id" -> id = value == JsonToken.VALUE_STRING ? parser.getText() : null;
                    case "type" -> type = value == JsonToken.VALUE_STRING ? parser.getText() : null;
                    case "partnerId" -> partnerId = value == JsonToken.VALUE_STRING ? parser.getText() : null;
                    case "webhook" -> {
                        if (value == JsonToken.START_OBJECT) {
                            webhookNull = false;
                            int start = (int) parser.currentTokenLocation().getCharOffset();
                            event = eventOf(parser);
                            int end = (int) parser.currentLocation().getCharOffset();
                            body = text.substring(start, end);
                        } else if (value != JsonToken.VALUE_NULL) {
                            return new Read(null, Skip.MALFORMED);
                        }
                    }
                    default -> parser.skipChildren();
                }
            }
            if (webhookNull) {
                return new Read(null, Skip.NO_WEBHOOK);
            }
            if (id == null || id.isEmpty() || partnerId == null || partnerId.isEmpty()) {
                return new Read(null, Skip.MALFORMED);
            }
            String name = event != null ? event : type != null ? type : "unknown";
            return new Read(new Webhook(id, partnerId, name, body), null);
        } catch (IOException | RuntimeException e) {
            return new Read(null, Skip.MALFORMED);
        }
    }

    /** Walks the webhook object to its end; answers its top-level {@code event} string if any. */
    private static String eventOf(JsonParser parser) throws IOException {
        String event = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            if (name.equals("event") && value == JsonToken.VALUE_STRING) {
                event = parser.getText();
            } else {
                parser.skipChildren();
            }
        }
        return event;
    }
}
