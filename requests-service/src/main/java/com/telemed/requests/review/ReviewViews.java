package com.telemed.requests.review;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.requests.consultation.Bookings;
import com.telemed.requests.member.MemberRecord;
import com.telemed.requests.prescription.PrescriptionViews;
import com.telemed.requests.request.LineItem;
import com.telemed.requests.request.Request;
import com.telemed.requests.request.RequestStatus;
import com.telemed.requests.request.RequestViews;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The prescriber console's view of requests (operators and prescribers, any partner). */
public final class ReviewViews {

    private ReviewViews() {
    }

    @JsonPropertyOrder({"itemId", "drugId", "drugName", "dosage", "requestedSkuId", "requestedSku", "selectedSkuId",
            "status", "prescriberId", "pharmacyId"})
    public record Item(UUID itemId, String drugId, String drugName, String dosage, String requestedSkuId,
                       String requestedSku, String selectedSkuId, String status, UUID prescriberId, String pharmacyId) {

        static Item of(LineItem item) {
            return new Item(item.id, item.drugId, item.drugName, item.dosage, item.requestedSkuId, item.requestedSku,
                    item.selectedSkuId, item.status, item.prescriberId, item.pharmacyId);
        }
    }

    /** A request in the queue and in every console answer. Holds patient data: an operator surface only. */
    @JsonPropertyOrder({"id", "partnerId", "memberId", "memberName", "memberState", "status", "storedStatus",
            "prescriberId", "providerId", "caseNotes", "lineItems", "createdAt", "updatedAt"})
    public record Reviewed(UUID id, String partnerId, UUID memberId, String memberName, String memberState, String status,
                           String storedStatus, UUID prescriberId, String providerId, String caseNotes, List<Item> lineItems,
                           Instant createdAt, Instant updatedAt) {

        static Reviewed of(Request request, List<LineItem> items) {
            List<String> statuses = items.stream().map(item -> item.status).toList();
            return new Reviewed(request.id, request.partnerId, request.memberId, request.memberName, request.memberState,
                    RequestStatus.computed(request, statuses), request.status, request.prescriberId, request.providerId,
                    request.caseNotes, items.stream().map(Item::of).toList(), request.createdAt, request.updatedAt);
        }
    }

    public record Queue(List<Reviewed> requests) {
    }

    /** The member of a console read, as members-service has it now: who the prescriber treats and where it ships. */
    @JsonPropertyOrder({"id", "firstName", "lastName", "dateOfBirth", "state", "shippingAddress"})
    public record Member(UUID id, String firstName, String lastName, String dateOfBirth, String state,
                         JsonNode shippingAddress) {

        static Member of(MemberRecord member) {
            return new Member(member.id(), member.firstName(), member.lastName(), member.dateOfBirth(), member.state(),
                    member.shippingAddress() == null || member.shippingAddress().isNull() ? null : member.shippingAddress());
        }
    }

    /**
     * {@code GET /ops/v1/requests/{id}}: the request as the queue gives it, its member (null when
     * members-service no longer has it) and its history as the partner's single read gives it.
     */
    @JsonPropertyOrder({"request", "member", "history"})
    public record Read(Reviewed request, Member member, List<RequestViews.History> history) {
    }

    /** Every console action answers the request as it now stands, plus what the action made. */
    @JsonPropertyOrder({"request", "prescriptionRecord", "booking"})
    public record Outcome(Reviewed request,
                          @JsonInclude(JsonInclude.Include.NON_NULL) PrescriptionViews.Record prescriptionRecord,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Bookings.Link booking) {
    }
}
