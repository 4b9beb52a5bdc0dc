package com.telemed.webhook.events;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.MediaType;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 44: the events page is written by {@link EventPageWriter}, field by field; it writes exactly what the
 * service's ObjectMapper writes for the same {@link EventsViews.Page} (order, nulls, raw data, timestamps, escapes).
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class EventPageWriterTest {

    @Inject
    ObjectMapper mapper;

    /** Through HTTP: the page is written by the writer, whole, as JSON with its length (no chunks). */
    @Test
    void aPageGoesAsJsonWithItsLength() {
        Response answer = given().header("X-Partner-Id", "partner-" + UUID.randomUUID()).when().get("/v1/events");
        answer.then().statusCode(200).contentType("application/json");
        assertEquals("{\"events\":[],\"nextCursor\":null,\"hasMore\":false}", answer.asString());
        assertEquals(String.valueOf(answer.asByteArray().length), answer.header("Content-Length"));
    }

    @Test
    void writesWhatTheObjectMapperWritesForEveryShapeOfEvent() throws Exception {
        Instant created = Instant.parse("2026-11-21T09:30:00.120Z");
        EventsViews.Event delivered = new EventsViews.Event(UUID.fromString("0b9f3a4e-1111-4c6b-9d3e-3a1f0c2b7d10"), "item.approved",
                created, "{\"event\":\"item.approved\",\"data\":{\"requestId\":\"r-1\",\"note\":\"Ünal \\\"quoted\\\"\\n\"}}",
                new EventsViews.Delivery("delivered", 2, Instant.parse("2026-11-21T09:30:01Z")));
        EventsViews.Event notSent = new EventsViews.Event(UUID.randomUUID(), "request.created", created, "{\"a\":[1,2.50,null]}",
                new EventsViews.Delivery("not_sent", 0, null));
        for (EventsViews.Page page : List.of(
                new EventsViews.Page(List.of(delivered, notSent), notSent.id().toString(), true),
                new EventsViews.Page(List.of(), null, false),
                new EventsViews.Page(List.of(), "c \"cursor\" é", false))) {
            ByteArrayOutputStream written = new ByteArrayOutputStream();
            new EventPageWriter().writeTo(page, EventsViews.Page.class, EventsViews.Page.class, null, MediaType.APPLICATION_JSON_TYPE,
                    null, written);
            assertEquals(mapper.writeValueAsString(page), written.toString(StandardCharsets.UTF_8));
        }
    }
}
