package com.telemed.requests.request;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.requests.member.MemberRecord;
import com.telemed.requests.prescription.PrescriptionViews;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Requests on the wire (partner-api.md, "Request", "Line item", "History entry"): records, never entities. */
public final class RequestViews {

    private RequestViews() {
    }

    /** {@code 201} and replay {@code 200} of {@code POST /v1/requests}. */
    @JsonPropertyOrder({"success", "requestId", "memberId", "itemCount", "message", "idempotentReplay"})
    public record Created(boolean success, UUID requestId, UUID memberId, int itemCount, String message,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Boolean idempotentReplay) {

        static Created of(Request request, boolean replay) {
            if (replay) {
                return new Created(true, request.id, request.memberId, request.itemCount,
                        "Request already exists (idempotent replay)", true);
            }
            String message = request.itemCount == 0 ? "Consultation request created successfully"
                    : "Request queued successfully with " + request.itemCount + " item(s)";
            return new Created(true, request.id, request.memberId, request.itemCount, message, null);
        }
    }

    @JsonPropertyOrder({"action", "timestamp", "by", "reason"})
    public record History(String action, Instant timestamp, String by,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String reason) {

        public static History of(HistoryEntry entry) {
            return new History(entry.action, entry.at, entry.by, entry.reason);
        }
    }

    /** A line item of a list entry. */
    @JsonPropertyOrder({"itemId", "drugId", "drugName", "dosage", "status", "prescriberId", "trackingNumber",
            "shipCarrier", "deliveryStatus"})
    public record CompactItem(UUID itemId, String drugId, String drugName, String dosage, String status,
                              UUID prescriberId, String trackingNumber, String shipCarrier, String deliveryStatus) {

        static CompactItem of(LineItem item) {
            return new CompactItem(item.id, item.drugId, item.drugName, item.dosage, item.status, item.prescriberId,
                    item.trackingNumber, item.shipCarrier, item.deliveryStatus);
        }

        /** The one item synthesised for a request without items (compatibility shape): its id is the request's. */
        static CompactItem synthesised(Request request) {
            return new CompactItem(request.id, request.drugId, request.drugName, request.dosage, request.status,
                    request.prescriberId, null, null, null);
        }
    }

    /** An entry of {@code GET /v1/requests}. */
    public sealed interface ListEntry permits Listed, CompatListed {
    }

    @JsonPropertyOrder({"id", "memberId", "memberName", "memberEmail", "memberState", "lineItems", "itemCount",
            "statusSummary", "status", "createdAt", "updatedAt"})
    public record Listed(UUID id, UUID memberId, String memberName, String memberEmail, String memberState,
                        List<CompactItem> lineItems, int itemCount, String statusSummary, String status,
                        Instant createdAt, Instant updatedAt) implements ListEntry {
    }

    /** A request without items in a list: stored status, top-level drug fields, one synthesised item. */
    @JsonPropertyOrder({"id", "memberId", "memberName", "memberEmail", "memberState", "drugId", "prescriptionName",
            "dosage", "lineItems", "itemCount", "statusSummary", "status", "createdAt", "updatedAt"})
    public record CompatListed(UUID id, UUID memberId, String memberName, String memberEmail, String memberState,
                              String drugId, String prescriptionName, String dosage, List<CompactItem> lineItems,
                              int itemCount, String statusSummary, String status, Instant createdAt,
                              Instant updatedAt) implements ListEntry {
    }

    @JsonPropertyOrder({"page", "limit", "total", "totalPages"})
    public record Pagination(long page, int limit, long total, long totalPages) {
    }

    public record Page(List<ListEntry> requests, Pagination pagination) {
    }

    /** A line item of the single read. */
    @JsonPropertyOrder({"itemId", "drugId", "drugName", "drug", "dosage", "status", "prescriberId", "pharmacyId",
            "prescription", "prescriptionRecord", "history", "pharmacySent", "pharmacySentAt", "trackingNumber",
            "shipCarrier", "deliveryStatus"})
    public record DetailItem(UUID itemId, String drugId, String drugName, JsonNode drug, String dosage, String status,
                             UUID prescriberId, String pharmacyId, PrescriptionViews.Prescription prescription,
                             PrescriptionViews.Record prescriptionRecord, List<History> history, boolean pharmacySent,
                             Instant pharmacySentAt, String trackingNumber, String shipCarrier, String deliveryStatus) {
    }

    /** {@code GET /v1/requests/:id}. */
    @JsonPropertyOrder({"id", "memberId", "memberName", "memberEmail", "memberDob", "memberState", "member", "lineItems",
            "itemCount", "statusSummary", "status", "prescriptionRecords", "prescriptionRecord", "drugId",
            "prescriptionName", "drug", "dosage", "pharmacyId", "caseNotes", "providerId", "createdAt", "updatedAt",
            "history"})
    public record Detail(UUID id, UUID memberId, String memberName, String memberEmail, String memberDob,
                         String memberState, MemberRecord.PartnerView member, List<DetailItem> lineItems, int itemCount,
                         String statusSummary, String status, List<PrescriptionViews.Record> prescriptionRecords,
                         PrescriptionViews.Record prescriptionRecord, String drugId, String prescriptionName,
                         JsonNode drug, String dosage, String pharmacyId, String caseNotes, String providerId,
                         Instant createdAt, Instant updatedAt, List<History> history) {
    }
}
