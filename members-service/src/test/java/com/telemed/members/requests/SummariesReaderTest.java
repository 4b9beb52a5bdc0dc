package com.telemed.members.requests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.members.FakeRequestsServiceResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 44: the summaries answer is read by {@link SummariesReader}, token by token, into what the service's
 * ObjectMapper reads for {@link SummariesAnswer} (the client's former reader), and what neither can read is refused.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class SummariesReaderTest {

    @Inject
    ObjectMapper mapper;

    private static final String MEMBER = "6f1d2c3b-2222-4e5f-8a7b-9c0d1e2f3a4b";

    @Test
    void readsWhatTheObjectMapperReads() throws Exception {
        for (String answer : List.of(
                "{\"summaries\":{}}",
                "{\"summaries\":{\"" + MEMBER + "\":[],\"not-a-uuid\":[]}}",
                // requests-service's shape: every field, nulls written, escapes, instants with milliseconds.
                "{\"summaries\":{\"" + MEMBER + "\":[{\"id\":\"0b9f3a4e-1111-4c6b-9d3e-3a1f0c2b7d10\",\"drugId\":\"drug-1\","
                        + "\"prescriptionName\":\"Drug \\u2013 one \\\"quoted\\\"\\n\",\"dosage\":\"2.5 mg\",\"status\":\"approved\","
                        + "\"caseNotes\":\"notes\\twith \u00dcnicode\",\"createdAt\":\"2026-11-21T09:30:00.120Z\","
                        + "\"updatedAt\":\"2026-11-22T00:00:00.000Z\"},{\"id\":\"7a8b9c0d-3333-4f5a-8b6c-7d8e9f0a1b2c\","
                        + "\"drugId\":null,\"prescriptionName\":null,\"dosage\":null,\"status\":\"pending\",\"caseNotes\":null,"
                        + "\"createdAt\":\"2026-11-20T08:00:00Z\",\"updatedAt\":null}]}}",
                // Another order, unknown fields (skipped whole), missing fields, whitespace.
                " { \"other\": {\"a\": [1, {\"b\": null}]}, \"summaries\" : { \"" + MEMBER + "\" : [ {\"status\": \"denied\","
                        + " \"extra\": [true], \"id\": \"0b9f3a4e-1111-4c6b-9d3e-3a1f0c2b7d10\", \"dosage\": 5 } ] }, \"more\": 1 } ",
                "{\"summaries\":null}",
                "{}")) {
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            assertEquals(mapper.readValue(bytes, SummariesAnswer.class), SummariesReader.read(bytes), answer);
        }
    }

    /** The platform's form from its digits, any other ISO-8601 instant (and the days the fast path leaves out) as the JDK reads it. */
    @Test
    void readsInstantsAsTheJdkDoes() {
        for (String text : List.of("2026-11-21T09:30:00.120Z", "1970-01-01T00:00:00.000Z", "0001-01-01T00:00:00.000Z",
                "9999-12-28T23:59:59.999Z", "2024-02-29T12:00:00.000Z", "2026-01-31T23:59:59.001Z", "2026-11-21T09:30:00Z",
                "2026-11-21T09:30:00.123456789Z", "2026-11-21T09:30:00.120+02:00")) {
            assertEquals(Instant.parse(text), SummariesReader.instant(text), text);
        }
        for (String text : List.of("2026-02-30T00:00:00.000Z", "2026-13-01T00:00:00.000Z",
                "2026-11-21T09:60:00.000Z", "2026-1a-21T09:30:00.000Z", "yesterday at noon, UTC.Z")) {
            assertThrows(RuntimeException.class, () -> SummariesReader.instant(text), text);
        }
    }

    /** A member mapped to null has no summaries (the client skipped the ObjectMapper's null list the same way). */
    @Test
    void aNullListIsNoSummaries() {
        SummariesAnswer answer = SummariesReader.read(("{\"summaries\":{\"" + MEMBER + "\":null}}").getBytes(StandardCharsets.UTF_8));
        assertEquals(Map.of(), answer.summaries());
        assertNull(SummariesReader.read("{\"summaries\":null}".getBytes(StandardCharsets.UTF_8)).summaries());
    }

    @Test
    void whatCannotBeReadIsRefused() {
        for (String answer : List.of("", "[]", "{\"summaries\":[]}", "{\"summaries\":{\"m\":{}}}", "{\"summaries\":{\"m\":[null]}}",
                "{\"summaries\":{\"m\":[{\"id\":\"not-a-uuid\"}]}}", "{\"summaries\":{\"m\":[{\"createdAt\":\"yesterday\"}]}}",
                "{\"summaries\":{\"m\":[{\"status\":{\"x\":1}}]}}", "{\"summaries\":{}} {}", "{\"summaries\":{}", "<html>")) {
            assertThrows(RuntimeException.class, () -> SummariesReader.read(answer.getBytes(StandardCharsets.UTF_8)), answer);
        }
    }
}
