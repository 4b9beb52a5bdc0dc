package com.telemed.requests.request;

import static io.restassured.RestAssured.given;

import com.telemed.requests.FakeNeighbours;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What a review test starts from: a new partner allowed one drug (one dosage, {@code 0.25mg}), one
 * of its members, a prescriber, and a pending request of that drug created through the partner API.
 */
public record PendingRequest(String partner, String drugId, String memberId, String prescriberId, String requestId,
                             String itemId) {

    /** Creates it all; the member is {@code firstName lastName} with a fresh email. */
    public static PendingRequest create(FakeNeighbours neighbours, String firstName, String lastName) {
        String partner = RequestFixtures.newPartner();
        String drugId = RequestFixtures.newDrugId();
        neighbours.drug(drugId, "Semaglutide", List.of("0.25mg"), partner);
        String memberId = neighbours.seedMember(partner, firstName, lastName,
                firstName.toLowerCase() + "+" + UUID.randomUUID() + "@example.com");
        String prescriberId = given().contentType("application/json")
                .body(Map.of("name", "Dr Lin", "email", "lin+" + UUID.randomUUID() + "@example.com"))
                .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
        String requestId = RequestFixtures.created(partner, RequestFixtures.prescription(memberId, drugId));
        String itemId = RequestFixtures.get(partner, requestId).then().statusCode(200).extract().path("lineItems[0].itemId");
        return new PendingRequest(partner, drugId, memberId, prescriberId, requestId, itemId);
    }
}
