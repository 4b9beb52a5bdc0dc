package com.telemed.common.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.time.Instant;

/**
 * Every Instant a service writes is a {@link Timestamps} string; unknown body fields are ignored;
 * nothing may follow a body's value but whitespace.
 */
@Singleton
public class JsonConventions implements ObjectMapperCustomizer {

    /** Applied last, so the JavaTimeModule Quarkus registers does not take Instant back. */
    @Override
    public int priority() {
        return MINIMUM_PRIORITY;
    }

    @Override
    public void customize(ObjectMapper mapper) {
        SimpleModule timestamps = new SimpleModule("platform-timestamps");
        timestamps.addSerializer(Instant.class, new JsonSerializer<>() {
            @Override
            public void serialize(Instant value, JsonGenerator generator, SerializerProvider provider) throws IOException {
                generator.writeString(Timestamps.format(value));
            }
        });
        mapper.registerModule(timestamps);
        mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
        // Exact numbers in trees: a body's 1e309 is a large number to validate, not an Infinity to fail on.
        mapper.configure(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS, true);
        // A body is read to its end before anything acts on it: content after the value is refused
        // ("Invalid JSON"), and a value followed by padding is not acted on while the rest of the
        // body is still arriving (the gateway may yet refuse it as too large).
        mapper.configure(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, true);
        // Amounts are plain numbers (partner-api.md, Billing): 100, never 1E+2 (a stripped BigDecimal's toString).
        mapper.configure(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN, true);
    }
}
