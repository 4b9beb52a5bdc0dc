package com.telemed.members.member;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.telemed.members.audit.MemberStatusAudit;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The wire shapes of a member. Of the partner shapes only {@link Created} carries gender and
 * partnerId; the version is in {@link Internal} alone (partner-api.md fixes the partner shapes).
 */
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
     * plus {@code partnerId}, {@code gender} (always present, null when never sent) and
     * {@code version} (the member's version, which requests-service compares with the fences it
     * received before trusting its copy: README, "Version and fence"). Partner reads built from it
     * must drop all three (partner-api.md: gender and partnerId only echo on create; version is no
     * contract field).
     */
    @JsonPropertyOrder({"id", "partnerId", "firstName", "lastName", "email", "phone", "dateOfBirth", "state",
            "status", "gender", "address", "shippingAddress", "createdAt", "updatedAt", "version"})
    public record Internal(UUID id, String partnerId, String firstName, String lastName, String email, String phone,
                           String dateOfBirth, String state, String status, String gender, AddressView address,
                           AddressView shippingAddress, Instant createdAt, Instant updatedAt, long version) {

        public static Internal of(Member m) {
            return new Internal(m.id, m.partnerId, m.firstName, m.lastName, m.email, m.phone, m.dateOfBirth,
                    m.state, m.status, m.gender, m.address(), m.shippingAddress(), m.createdAt, m.updatedAt,
                    m.version);
        }
    }

    /**
     * {@code POST /internal/members/find-or-create}: {@code {member, created}}, or, when the change of an
     * existing member was not fenced as asked, {@code {member: null, created: false, fence: {memberId,
     * version}}} (MemberService#findOrCreate).
     */
    public record FoundOrCreated(Internal member, boolean created,
                                 @JsonInclude(JsonInclude.Include.NON_NULL) FenceFirst fence) {

        static FoundOrCreated of(Internal member, boolean created) {
            return new FoundOrCreated(member, created, null);
        }

        static FoundOrCreated fenceFirst(UUID memberId, long version) {
            return new FoundOrCreated(null, false, new FenceFirst(memberId.toString(), version));
        }
    }

    /** The change requests-service must fence before find-or-create makes it. */
    public record FenceFirst(String memberId, long version) {
    }

    /** {@code GET /internal/members/:id}. */
    public record InternalEnvelope(Internal member) {
    }

    /** {@code POST /internal/members/batch}. */
    public record InternalBatch(List<Internal> members) {
    }

    /**
     * One status of a billing export entry: the member's creation ({@code id} = the member's id,
     * {@code active}, at {@code createdAt}: members always start active) or a status audit row
     * ({@code id} = its id, the {@code statusChangeId} of its {@code member.status_changed}).
     */
    @JsonPropertyOrder({"id", "status", "at"})
    public record StatusChange(UUID id, String status, Instant at) {
    }

    /**
     * A member in {@code GET /internal/members/billing-export}: what billing-service's ledger keeps
     * of it (names and email for {@code memberName}/{@code memberEmail}, and every status it had
     * with when), nothing more: no phone, date of birth or address.
     */
    @JsonPropertyOrder({"memberId", "firstName", "lastName", "email", "createdAt", "updatedAt", "statusChanges"})
    public record BillingMember(UUID memberId, String firstName, String lastName, String email, Instant createdAt,
                                Instant updatedAt, List<StatusChange> statusChanges) {

        /** {@code changes}: the member's audit rows, oldest first. */
        public static BillingMember of(Member m, List<MemberStatusAudit> changes) {
            List<StatusChange> statuses = new ArrayList<>(changes.size() + 1);
            statuses.add(new StatusChange(m.id, "active", m.createdAt));
            changes.forEach(change -> statuses.add(new StatusChange(change.id, change.newStatus, change.changedAt)));
            return new BillingMember(m.id, m.firstName, m.lastName, m.email, m.createdAt, m.updatedAt, statuses);
        }
    }

    /**
     * {@code GET /internal/members/billing-export}: one page, ids ascending; {@code next} is the
     * last member's id when the page is full (ask again with {@code after=next}), null when it is
     * the last page.
     */
    @JsonPropertyOrder({"members", "next"})
    public record BillingExport(List<BillingMember> members, UUID next) {

        public static BillingExport of(MemberQueries.BillingPage page, int limit) {
            List<BillingMember> members = page.members().stream()
                    .map(member -> BillingMember.of(member, page.statusChanges().getOrDefault(member.id, List.of())))
                    .toList();
            UUID next = members.size() == limit ? members.get(members.size() - 1).memberId() : null;
            return new BillingExport(members, next);
        }
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
