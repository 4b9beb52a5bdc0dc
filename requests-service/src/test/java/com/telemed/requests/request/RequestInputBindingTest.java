package com.telemed.requests.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.common.validation.ValidationException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code POST /v1/requests} read: validated (body and header in one answer), then bound to {@link RequestInput}. */
class RequestInputBindingTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-11-24T09:30:00Z");

    private static RequestInput read(String body, String headerKey) throws Exception {
        JsonNode tree = body == null ? null : JSON.readTree(body);
        return RequestSchemas.createInput(tree, headerKey, () -> NOW);
    }

    @Test
    void theItemIsTheFirstOfItems() throws Exception {
        RequestInput input = read("""
                {"memberId": "m-1", "caseNotes": "notes", "idempotencyKey": "k-1", "pharmacySendAt": "2026-12-01T10:00:00Z",
                 "items": [{"drugId": "sema", "requestedSkuId": "sku-1", "dosage": "0.5mg", "requestedSku": "pen",
                            "requestedClinicalDose": {"value": 2.5, "unit": "mg"}}], "unknown": true}""", null);
        assertEquals("m-1", input.memberId());
        assertNull(input.member());
        assertEquals("notes", input.caseNotes());
        assertEquals("k-1", input.idempotencyKey());
        assertEquals("2026-12-01T10:00:00Z", input.pharmacySendAt());
        assertEquals(new RequestInput.ItemInput("sema", "sku-1", "0.5mg", "pen",
                new RequestInput.DoseInput(new BigDecimal("2.5"), "mg")), input.item());
    }

    @Test
    void theLegacyBodysTopLevelDrugIsTheItem() throws Exception {
        RequestInput input = read("""
                {"member": {"firstName": "Ada", "lastName": "L", "email": "ada@example.com", "dateOfBirth": "1990-01-01",
                            "state": "CA", "address": {"street1": "1 Main", "city": "SF", "state": "CA", "zipCode": "94105"}},
                 "caseNotes": "notes", "drugId": "sema", "dosage": "0.5mg"}""", null);
        assertEquals(new RequestInput.ItemInput("sema", null, "0.5mg", null, null), input.item());
        assertEquals("ada@example.com", input.member().sent().get("email").textValue(), "the inline member stays a tree");
        assertNull(input.memberId());
    }

    @Test
    void aConsultationRequestHasNoItem() throws Exception {
        assertNull(read("{\"memberId\": \"m-1\", \"caseNotes\": \"notes\", \"items\": []}", null).item());
        assertNull(read("{\"memberId\": \"m-1\", \"caseNotes\": \"notes\"}", null).item());
    }

    @Test
    void theHeadersIssueComesFirstWithTheBodysInOneAnswer() {
        ValidationException refused = assertThrows(ValidationException.class, () -> read("{}", "k".repeat(256)));
        List<List<Object>> paths = refused.issues().stream().map(issue -> issue.path()).toList();
        assertEquals(List.of(List.of("Idempotency-Key"), List.of("memberId"), List.of("caseNotes")), paths);
    }

    @Test
    void anAbsentBodyIsReadAsEmpty() {
        ValidationException refused = assertThrows(ValidationException.class, () -> read(null, null));
        assertEquals(List.of(List.of("memberId"), List.of("caseNotes")),
                refused.issues().stream().map(issue -> issue.path()).toList());
    }
}
