package com.telemed.requests.fulfilment;

import static com.telemed.testkit.http.Refusals.assertAnswer;
import static com.telemed.requests.fulfilment.Fulfilled.approve;
import static com.telemed.requests.fulfilment.Fulfilled.read;
import static com.telemed.requests.fulfilment.Fulfilled.sent;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.request.PendingRequest;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A pharmacy credential sends shipping updates for its own orders only (people-and-pages.md,
 * "Pharmacy credentials"; issue #40): another pharmacy's order is not found, exactly as an unknown
 * one; and it may call nothing else.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class PharmacyOwnOrdersTest {

    @Inject
    FakeNeighbours neighbours;

    private static Response update(String principal, String orderId) {
        return given().header(TestServiceProofs.PRINCIPAL_HEADER, principal).contentType("application/json")
                .body("{\"pharmacyOrderId\": \"" + orderId + "\", \"status\": \"in_transit\"}").post("/ops/v1/pharmacy/updates");
    }

    @Test
    void aPharmacyUpdatesItsOwnOrdersAndFindsNoOtherPharmacys() {
        neighbours.reset();
        PendingRequest pending = PendingRequest.create(neighbours, "Grace", "Hopper");
        approve(pending).then().statusCode(200);
        await().atMost(Duration.ofSeconds(15)).until(() -> sent(pending));
        String orderId = read(pending).then().extract().path("lineItems[0].prescriptionRecord.pharmacyOrderId");
        // The fake catalogue names each drug's pharmacy "pharmacy-<drugId>".
        String own = TestServiceProofs.pharmacy("pharmacy-" + pending.drugId());

        assertAnswer(update(TestServiceProofs.pharmacy("pharmacy-other"), orderId), 404, "{\"error\":\"Order not found\"}");
        assertAnswer(update(own, "ord_unknown"), 404, "{\"error\":\"Order not found\"}");
        // Nothing changed by the refused update.
        assertNull(read(pending).then().extract().<String>path("lineItems[0].deliveryStatus"));
        assertAnswer(update(TestServiceProofs.person("acc_support", null, "support"), orderId), 403, "{\"error\":\"Forbidden\"}");
        update(own, orderId).then().statusCode(200);
        assertEquals("in_transit", read(pending).then().extract().<String>path("lineItems[0].deliveryStatus"));
        // A pharmacy may call nothing else.
        assertAnswer(given().header(TestServiceProofs.PRINCIPAL_HEADER, own).get("/ops/v1/pharmacy/failed-transmissions"), 403,
                "{\"error\":\"Forbidden\"}");
        given().header(TestServiceProofs.PRINCIPAL_HEADER, TestServiceProofs.person("acc_support", null, "support"))
                .get("/ops/v1/pharmacy/failed-transmissions").then().statusCode(200);
    }
}
