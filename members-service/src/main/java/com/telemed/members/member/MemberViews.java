package com.telemed.members.member;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The wire shapes of a member. Only {@link Created} carries gender and partnerId. */
public final class MemberViews {

    private MemberViews() {
    }

    /** {@code POST /v1/members}: the listed fields plus shippingAddress, and gender only when sent. */
    @JsonPropertyOrder({"id", "firstName", "lastName", "email", "phone", "dateOfBirth", "state", "address",
            "shippingAddress", "partnerId", "status", "gender", "createdAt", "updatedAt"})
    public record Created(UUID id, String firstName, String lastName, String email, String phone,
                          String dateOfBirth, String state, AddressView address, AddressView shippingAddress,
                          String partnerId, String status,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String gender,
                          Instant createdAt, Instant updatedAt) {

        public static Created of(Member m) {
            return new Created(m.id, m.firstName, m.lastName, m.email, m.phone, m.dateOfBirth, m.state,
                    m.address(), m.shippingAddress(), m.partnerId, m.status, m.gender, m.createdAt, m.updatedAt);
        }
    }

    /** {@code PUT /v1/members/:id}: the stored member without requests, gender or partnerId. */
    @JsonPropertyOrder({"id", "firstName", "lastName", "email", "phone", "dateOfBirth", "state", "status",
            "address", "shippingAddress", "createdAt", "updatedAt"})
    public record Stored(UUID id, String firstName, String lastName, String email, String phone,
                         String dateOfBirth, String state, String status, AddressView address,
                         AddressView shippingAddress, Instant createdAt, Instant updatedAt) {

        public static Stored of(Member m) {
            return new Stored(m.id, m.firstName, m.lastName, m.email, m.phone, m.dateOfBirth, m.state, m.status,
                    m.address(), m.shippingAddress(), m.createdAt, m.updatedAt);
        }
    }

    /** {@code GET /v1/members} entries and {@code GET /v1/members/:id}: the stored member with its requests. */
    @JsonPropertyOrder({"id", "firstName", "lastName", "email", "phone", "dateOfBirth", "state", "status",
            "address", "shippingAddress", "createdAt", "updatedAt", "requests"})
    public record WithRequests(UUID id, String firstName, String lastName, String email, String phone,
                               String dateOfBirth, String state, String status, AddressView address,
                               AddressView shippingAddress, Instant createdAt, Instant updatedAt,
                               List<RequestSummary> requests) {

        public static WithRequests of(Member m, List<RequestSummary> requests) {
            return new WithRequests(m.id, m.firstName, m.lastName, m.email, m.phone, m.dateOfBirth, m.state,
                    m.status, m.address(), m.shippingAddress(), m.createdAt, m.updatedAt, requests);
        }
    }

    /**
     * The internal member ({@code /internal/members/...}, for requests-service): the stored member
     * plus {@code partnerId} and {@code gender} (always present, null when never sent). Partner
     * reads built from it must drop both (partner-api.md: gender and partnerId only echo on create).
     */
    @JsonPropertyOrder({"id", "partnerId", "firstName", "lastName", "email", "phone", "dateOfBirth", "state",
            "status", "gender", "address", "shippingAddress", "createdAt", "updatedAt"})
    public record Internal(UUID id, String partnerId, String firstName, String lastName, String email, String phone,
                           String dateOfBirth, String state, String status, String gender, AddressView address,
                           AddressView shippingAddress, Instant createdAt, Instant updatedAt) {

        public static Internal of(Member m) {
            return new Internal(m.id, m.partnerId, m.firstName, m.lastName, m.email, m.phone, m.dateOfBirth,
                    m.state, m.status, m.gender, m.address(), m.shippingAddress(), m.createdAt, m.updatedAt);
        }
    }

    /** {@code POST /internal/members/find-or-create}. */
    public record FoundOrCreated(Internal member, boolean created) {
    }

    /** {@code GET /internal/members/:id}. */
    public record InternalEnvelope(Internal member) {
    }

    /** {@code POST /internal/members/batch}. */
    public record InternalBatch(List<Internal> members) {
    }

    public record CreatedEnvelope(boolean success, Created member) {
    }

    public record StoredEnvelope(boolean success, Stored member) {
    }

    public record Pagination(long page, int limit, long total, long totalPages) {
    }

    public record Page(List<WithRequests> members, Pagination pagination) {
    }
}
