package com.telemed.requests.member;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.UUID;

/**
 * A member as members-service's internal API gives it; {@code version} numbers its changes
 * ({@link MemberCopies}). What partners see of it is
 * {@link #forPartner()}: {@code partnerId} and {@code gender} are echoed only by the member
 * create response (partner-api.md, Member).
 */
public record MemberRecord(UUID id, String partnerId, String firstName, String lastName, String email, String phone,
                           String dateOfBirth, String state, String status, String gender, JsonNode address,
                           JsonNode shippingAddress, Instant createdAt, Instant updatedAt, Long version) {

    @JsonIgnore
    public String name() {
        return (firstName + " " + lastName).trim();
    }

    public PartnerView forPartner() {
        return new PartnerView(id, firstName, lastName, email, phone, dateOfBirth, state, status, address,
                shippingAddress, createdAt, updatedAt);
    }

    /** The embedded member record of a request's single read. */
    @JsonPropertyOrder({"id", "firstName", "lastName", "email", "phone", "dateOfBirth", "state", "status", "address",
            "shippingAddress", "createdAt", "updatedAt"})
    public record PartnerView(UUID id, String firstName, String lastName, String email, String phone, String dateOfBirth,
                              String state, String status, JsonNode address, JsonNode shippingAddress, Instant createdAt,
                              Instant updatedAt) {
    }
}
