package com.telemed.web.console.request;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The decision forms as the gateway's bodies, and its issues back by field. */
class DecisionFormsTest {

    static final ObjectMapper JSON = new ObjectMapper();

    static MultivaluedMap<String, String> form(String... pairs) {
        MultivaluedMap<String, String> form = new MultivaluedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            form.add(pairs[i], pairs[i + 1]);
        }
        return form;
    }

    /** Compared as JSON text: a number is a number, whichever node class holds it. */
    static String text(String json) throws Exception {
        return JSON.readTree(json).toString();
    }

    @Test
    void integersAreNumbersAndAnythingElseTheTextTyped() throws Exception {
        assertEquals(text("{\"prescription\":{\"quantity\":30,\"daysSupply\":90,\"directions\":\" Once \",\"refills\":0,"
                        + "\"dispenseAsWritten\":true}}"),
                DecisionForms.approval(form("csrf", "x", "skuId", "", "quantity", "30", "quantityUnits", "", "daysSupply", " 90",
                        "directions", " Once ", "refills", "0", "dispenseAsWritten", "on", "prescriberId", "someone-else")).toString());
        assertEquals(text("{\"prescription\":{\"skuId\":\"sku_1\",\"quantity\":\"2.5\",\"quantityUnits\":\"ml\",\"daysSupply\":\"\","
                        + "\"directions\":\"\",\"refills\":\"-\",\"dispenseAsWritten\":false}}"),
                DecisionForms.approval(form("skuId", "sku_1", "quantity", "2.5", "quantityUnits", "ml", "refills", "-")).toString());
        assertEquals(text("{\"prescription\":{\"quantity\":123456789012345678901234567890,\"daysSupply\":-1,\"directions\":\"\","
                + "\"refills\":1,\"dispenseAsWritten\":false}}"), DecisionForms.approval(form("quantity", "123456789012345678901234567890",
                "daysSupply", "-1", "refills", "1")).toString());
    }

    @Test
    void aReasonIsSentOnlyWhenGiven() throws Exception {
        assertEquals(text("{\"reason\":\"Not suitable\"}"), DecisionForms.denial(form("reason", "  Not suitable ")).toString());
        assertEquals("{}", DecisionForms.denial(form("reason", "  ")).toString());
        assertEquals("{}", DecisionForms.denial(form()).toString());
    }

    @Test
    void issuesGoToTheirFieldsAndTheRestToTheForm() throws Exception {
        List<JsonNode> issues = List.of(
                JSON.readTree("{\"path\":[\"prescription\",\"quantity\"],\"message\":\"Required\"}"),
                JSON.readTree("{\"path\":[\"prescription\",\"quantity\"],\"message\":\"Second\"}"),
                JSON.readTree("{\"path\":[\"prescription\",\"clinicalDose\",\"value\"],\"message\":\"Dose\"}"),
                JSON.readTree("{\"path\":[\"reason\"],\"message\":\"Too long\"}"));
        assertEquals(Map.of("quantity", "Required", "", "Dose"),
                DecisionForms.errors(issues.subList(0, 3), List.copyOf(DecisionForms.APPROVE_FIELDS.keySet())));
        assertEquals(Map.of("reason", "Too long"), DecisionForms.errors(issues.subList(3, 4), List.of("reason")));
    }
}
