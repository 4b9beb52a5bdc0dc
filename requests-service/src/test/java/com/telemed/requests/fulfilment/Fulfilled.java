package com.telemed.requests.fulfilment;

import static com.telemed.testkit.quarkus.ServiceDatabase.rows;
import static com.telemed.testkit.quarkus.ServiceDatabase.texts;
import static io.restassured.RestAssured.given;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.request.PendingRequest;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Calls and reads of the fulfilment tests: the console's approval, the partner's send, the item's stored state. */
final class Fulfilled {

    private Fulfilled() {
    }

    /** Approves the pending request's item through the prescriber console (30 days' supply). */
    static Response approve(PendingRequest pending) {
        return given().contentType("application/json").body("""
                        {"prescriberId": "%s", "prescription": {"skuId": "%s", "quantity": 4, "daysSupply": 30,
                         "directions": "Inject weekly", "refills": 2, "dispenseAsWritten": false,
                         "clinicalDose": {"value": 0.25, "unit": "mg"}}}"""
                        .formatted(pending.prescriberId(), FakeNeighbours.skuId(pending.drugId(), 0)))
                .post("/ops/v1/requests/" + pending.requestId() + "/items/" + pending.itemId() + "/approve");
    }

    static Response send(String partner, String requestId, String itemId) {
        return given().header("X-Partner-Id", partner)
                .post("/v1/requests/" + requestId + "/items/" + itemId + "/send-to-pharmacy");
    }

    static Response send(PendingRequest pending) {
        return send(pending.partner(), pending.requestId(), pending.itemId());
    }

    static Response mode(String partner, String mode) {
        return given().contentType("application/json").body("{\"mode\": \"" + mode + "\"}")
                .put("/ops/v1/partners/" + partner + "/fulfilment");
    }

    static Response read(PendingRequest pending) {
        return given().header("X-Partner-Id", pending.partner()).get("/v1/requests/" + pending.requestId());
    }

    static boolean sent(PendingRequest pending) {
        return read(pending).then().statusCode(200).extract().<Boolean>path("lineItems[0].pharmacySent");
    }

    /** The item's fulfilment columns, as stored. */
    static Map<String, Object> stored(PendingRequest pending) {
        return rows("SELECT status, pharmacy_sent, pharmacy_order_id, transmit_due_at, transmission_claim, transmission_error, "
                + "transmission_failed_at FROM line_items WHERE id = ?", UUID.fromString(pending.itemId())).get(0);
    }

    /** The item's history actions, oldest first, as {@code action by}. */
    static List<String> history(PendingRequest pending) {
        return texts("SELECT action || ' ' || by_actor FROM history_entries WHERE item_id = ? ORDER BY id",
                UUID.fromString(pending.itemId()));
    }

    static String recordStatus(PendingRequest pending) {
        return texts("SELECT status FROM prescription_records WHERE line_item_id = ?", UUID.fromString(pending.itemId())).get(0);
    }

    static String held(String code, String reason) {
        return "Fulfillment held: " + code + ": " + reason;
    }
}
