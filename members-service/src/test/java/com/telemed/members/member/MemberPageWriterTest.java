package com.telemed.members.member;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.members.FakeRequestsServiceResource;
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
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 44: the list page is written by {@link MemberPageWriter}, field by field; it writes exactly what the service's
 * ObjectMapper writes for the same {@link MemberViews.Page} (order, nulls, timestamps, escapes) for every shape of
 * entry: addresses null or present, requests none or several, null fields.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class MemberPageWriterTest {

    @Inject
    ObjectMapper mapper;

    /** Through HTTP: the page is written by the writer, whole, as JSON with its length (no chunks). */
    @Test
    void aPageGoesAsJsonWithItsLength() {
        Response answer = MemberFixtures.list(MemberFixtures.newPartner(), Map.of());
        answer.then().statusCode(200).contentType("application/json");
        assertEquals("{\"members\":[],\"pagination\":{\"page\":1,\"limit\":20,\"total\":0,\"totalPages\":0}}", answer.asString());
        assertEquals(String.valueOf(answer.asByteArray().length), answer.header("Content-Length"));
    }

    @Test
    void writesWhatTheObjectMapperWritesForEveryShapeOfEntry() throws Exception {
        Instant created = Instant.parse("2026-11-21T09:30:00.120Z");
        Instant updated = Instant.parse("2026-11-22T00:00:00.999999Z");
        RequestSummary single = new RequestSummary(UUID.fromString("0b9f3a4e-1111-4c6b-9d3e-3a1f0c2b7d10"), "drug-1",
                "Drug – one \"quoted\"\n", "2.5 mg", "approved", "notes\twith Ünicode \u2028 and \\", created, updated);
        RequestSummary several = new RequestSummary(UUID.randomUUID(), null, null, null, "pending", null, created, null);
        AddressView home = new AddressView("1 Main St", "Apt <2>", "Springfield", "IL", "62701-1234");
        AddressView noStreet2 = new AddressView("9 Oak Ave", null, "Salem", "OR", "97301");
        MemberViews.WithRequests full = new MemberViews.WithRequests(UUID.randomUUID(), "Ada \"Lovelace\"", "Ünal", "ada@example.com",
                "+1 555 0100", "1990-04-01", "CA", "active", home, noStreet2, created, updated, List.of(single, several));
        MemberViews.WithRequests bare = new MemberViews.WithRequests(UUID.randomUUID(), "Bo", "Li", "bo@example.com", null,
                "1985-12-31", "NY", "paused", home, null, created, created, List.of());
        MemberViews.WithRequests nulls = new MemberViews.WithRequests(null, null, null, null, null, null, null, null, null, null,
                null, null, null);
        for (MemberViews.Page page : List.of(
                new MemberViews.Page(List.of(full, bare, nulls), new MemberViews.Pagination(1, 20, 3, 1)),
                new MemberViews.Page(List.of(), new MemberViews.Pagination(9_223_372_036_854_775L, 100, 0, 0)))) {
            ByteArrayOutputStream written = new ByteArrayOutputStream();
            new MemberPageWriter().writeTo(page, MemberViews.Page.class, MemberViews.Page.class, null,
                    MediaType.APPLICATION_JSON_TYPE, null, written);
            assertEquals(mapper.writeValueAsString(page), written.toString(StandardCharsets.UTF_8));
        }
    }
}
