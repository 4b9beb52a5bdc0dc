package com.telemed.requests.request;

import static io.restassured.RestAssured.given;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 44: the answer of {@code POST /internal/requests/summaries} is written by {@link SummariesWriter}, field by
 * field; it writes exactly what the service's ObjectMapper writes for the same answer (order, nulls, timestamps,
 * escapes, members in the order asked).
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class SummariesWriterTest {

    @Inject
    ObjectMapper mapper;

    /** Through HTTP: the answer is written by the writer, whole, as JSON with its length (no chunks). */
    @Test
    void anAnswerGoesAsJsonWithItsLength() {
        String member = UUID.randomUUID().toString();
        Response answer = given().contentType("application/json")
                .body(Map.of("partnerId", RequestFixtures.newPartner(), "memberIds", List.of(member, "not-a-uuid")))
                .when().post("/internal/requests/summaries");
        answer.then().statusCode(200).contentType("application/json");
        assertEquals("{\"summaries\":{\"" + member + "\":[],\"not-a-uuid\":[]}}", answer.asString());
        assertEquals(String.valueOf(answer.asByteArray().length), answer.header("Content-Length"));
    }

    @Test
    void writesWhatTheObjectMapperWritesForEveryShapeOfAnswer() throws Exception {
        Instant created = Instant.parse("2026-11-21T09:30:00.120Z");
        Instant updated = Instant.parse("2026-11-22T00:00:00Z");
        MemberRequests.Summary single = new MemberRequests.Summary(UUID.fromString("0b9f3a4e-1111-4c6b-9d3e-3a1f0c2b7d10"),
                "drug-1", "Drug – one \"quoted\"\n", "2.5 mg", "approved", "notes\twith Ünicode \u2028 and \\", created, updated);
        MemberRequests.Summary several = new MemberRequests.Summary(UUID.randomUUID(), null, null, null, "pending", null,
                created, null);
        MemberRequests.Summary consultation = new MemberRequests.Summary(UUID.randomUUID(), null, null, null, "call_requested",
                "", Instant.parse("1999-12-31T23:59:59.999999Z"), Instant.parse("2026-01-01T00:00:00.001Z"));
        Map<String, List<MemberRequests.Summary>> byMember = new LinkedHashMap<>();
        byMember.put("6f1d2c3b-2222-4e5f-8a7b-9c0d1e2f3a4b", List.of(single, several, consultation));
        byMember.put("not-a-uuid", List.of());
        byMember.put(UUID.randomUUID().toString(), List.of(several));
        for (InternalRequestResource.Summaries answer : List.of(new InternalRequestResource.Summaries(byMember),
                new InternalRequestResource.Summaries(Map.of()), new InternalRequestResource.Summaries(null))) {
            ByteArrayOutputStream written = new ByteArrayOutputStream();
            new SummariesWriter().writeTo(answer, InternalRequestResource.Summaries.class, InternalRequestResource.Summaries.class,
                    null, MediaType.APPLICATION_JSON_TYPE, null, written);
            assertEquals(mapper.writeValueAsString(answer), written.toString(StandardCharsets.UTF_8));
        }
    }
}
