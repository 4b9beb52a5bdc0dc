package com.telemed.common.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.StringWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The page writers' fields are what the ObjectMapper writes: {@link Timestamps#format}'s text, nulls, UUIDs. */
class JsonFieldsTest {

    private static final JsonFactory JSON = new JsonFactory();

    @Test
    void writesEveryTimestampAsTheFormatterDoes() throws Exception {
        List<Instant> instants = new ArrayList<>(List.of(Instant.EPOCH, Instant.parse("1969-12-31T23:59:59.999Z"),
                Instant.parse("0000-01-01T00:00:00Z"), Instant.parse("0999-03-04T05:06:07.008Z"),
                Instant.parse("9999-12-31T23:59:59.999999999Z"), Instant.parse("+10000-01-01T00:00:00Z"),
                Instant.parse("-0001-12-31T23:59:59Z"), Instant.parse("2024-02-29T12:00:00.000500Z"), Instant.now()));
        Random random = new Random(44);
        for (int i = 0; i < 10_000; i++) {
            instants.add(Instant.ofEpochSecond(random.nextLong(-62_167_219_200L, 253_402_300_800L), random.nextInt(1_000_000_000)));
        }
        for (Instant instant : instants) {
            StringWriter text = new StringWriter();
            try (JsonGenerator json = JSON.createGenerator(text)) {
                json.writeStartObject();
                JsonFields.timestamp("at", instant, json);
                json.writeEndObject();
            }
            assertEquals("{\"at\":\"" + Timestamps.format(instant) + "\"}", text.toString(), instant.toString());
        }
    }

    @Test
    void writesNullsAsNullAndTextEscaped() throws Exception {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(text)) {
            json.writeStartObject();
            JsonFields.string("name", "a \"b\"\n", json);
            JsonFields.string("none", null, json);
            JsonFields.uuid("id", UUID.fromString("0b7e7f43-3f1e-4b9e-9d7a-2c1f3e5a6b7c"), json);
            JsonFields.uuid("noId", null, json);
            JsonFields.timestamp("at", null, json);
            json.writeEndObject();
        }
        assertEquals("{\"name\":\"a \\\"b\\\"\\n\",\"none\":null,\"id\":\"0b7e7f43-3f1e-4b9e-9d7a-2c1f3e5a6b7c\",\"noId\":null,\"at\":null}",
                text.toString());
    }
}
