package com.telemed.requests.request;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.requests.FakeNeighboursResource;
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
 * Issue 44: the list page is written by {@link RequestPageWriter}, field by field; it writes exactly what the
 * service's ObjectMapper writes for the same {@link RequestViews.Page} (order, nulls, timestamps, escapes).
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class RequestPageWriterTest {

    @Inject
    ObjectMapper mapper;

    /** Through HTTP: the page is written by the writer, whole, as JSON with its length (no chunks). */
    @Test
    void aPageGoesAsJsonWithItsLength() {
        Response answer = RequestFixtures.list(RequestFixtures.newPartner(), "");
        answer.then().statusCode(200).contentType("application/json");
        assertEquals("{\"requests\":[],\"pagination\":{\"page\":1,\"limit\":20,\"total\":0,\"totalPages\":0}}", answer.asString());
        assertEquals(String.valueOf(answer.asByteArray().length), answer.header("Content-Length"));
    }

    @Test
    void writesWhatTheObjectMapperWritesForEveryShapeOfEntry() throws Exception {
        UUID request = UUID.fromString("0b9f3a4e-1111-4c6b-9d3e-3a1f0c2b7d10");
        UUID member = UUID.fromString("6f1d2c3b-2222-4e5f-8a7b-9c0d1e2f3a4b");
        UUID prescriber = UUID.fromString("7a8b9c0d-3333-4f5a-8b6c-7d8e9f0a1b2c");
        Instant created = Instant.parse("2026-11-21T09:30:00.120Z");
        Instant updated = Instant.parse("2026-11-22T00:00:00Z");
        RequestViews.Listed twoItems = new RequestViews.Listed(request, member, "Ada \"Lovelace\" Ünal", "ada@example.com", "CA",
                List.of(new RequestViews.CompactItem(UUID.randomUUID(), "drug-1", "Drug – one\n", "2.5 mg", "approved", prescriber,
                                "1Z999", "ups", "in_transit"),
                        new RequestViews.CompactItem(UUID.randomUUID(), "drug-2", "Drug two", null, "pending", null, null, null, null)),
                2, "2 drug - 1 approved, 1 pending", "pending", created, updated);
        RequestViews.CompatListed consultation = new RequestViews.CompatListed(UUID.randomUUID(), member, null, null, null, null, null,
                null, List.of(new RequestViews.CompactItem(request, null, null, null, "call_requested", null, null, null, null)), 1,
                "1 drug - call_requested", "call_requested", created, updated);
        RequestViews.CompatListed legacy = new RequestViews.CompatListed(UUID.randomUUID(), member, "Bo", "bo@example.com", "NY",
                "drug-3", "Legacy drug", "10 mg", List.of(new RequestViews.CompactItem(request, "drug-3", "Legacy drug", "10 mg",
                "denied", prescriber, null, null, null)), 1, "1 drug - denied", "denied", created, null);
        for (RequestViews.Page page : List.of(
                new RequestViews.Page(List.of(twoItems, consultation, legacy), new RequestViews.Pagination(1, 20, 3, 1)),
                new RequestViews.Page(List.of(), new RequestViews.Pagination(9_223_372_036_854_775L, 100, 0, 0)))) {
            ByteArrayOutputStream written = new ByteArrayOutputStream();
            new RequestPageWriter().writeTo(page, RequestViews.Page.class, RequestViews.Page.class, null,
                    MediaType.APPLICATION_JSON_TYPE, null, written);
            assertEquals(mapper.writeValueAsString(page), written.toString(StandardCharsets.UTF_8));
        }
    }
}
