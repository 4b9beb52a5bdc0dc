package com.telemed.requests.request;

import static com.telemed.common.json.JsonFields.string;
import static com.telemed.common.json.JsonFields.timestamp;
import static com.telemed.common.json.JsonFields.uuid;

import com.fasterxml.jackson.core.JsonGenerator;
import com.telemed.common.json.OneBufferJsonWriter;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.time.Instant;
import java.util.UUID;

/**
 * A page of {@code GET /v1/requests} written field by field with a streaming generator (issue 44): what
 * the platform's ObjectMapper writes for {@link RequestViews.Page} (the views' property order, nulls
 * written, {@link com.telemed.common.json.JsonFields} for nulls, ids and instants), without its per-call serializer lookups and reflection over
 * some 500 values a page. {@code RequestPageWriterTest} holds it to the ObjectMapper's bytes.
 */
@Provider
@Produces(MediaType.APPLICATION_JSON)
public class RequestPageWriter extends OneBufferJsonWriter<RequestViews.Page> {

    public RequestPageWriter() {
        super(RequestViews.Page.class, 16 * 1024);
    }

    /** The page: {@code {"requests": [...], "pagination": {...}}}. */
    @Override
    protected void write(RequestViews.Page page, JsonGenerator json) throws IOException {
        json.writeStartObject();
        json.writeArrayFieldStart("requests");
        for (RequestViews.ListEntry entry : page.requests()) {
            if (entry instanceof RequestViews.Listed listed) {
                listed(listed, json);
            } else {
                compat((RequestViews.CompatListed) entry, json);
            }
        }
        json.writeEndArray();
        RequestViews.Pagination pagination = page.pagination();
        json.writeObjectFieldStart("pagination");
        json.writeNumberField("page", pagination.page());
        json.writeNumberField("limit", pagination.limit());
        json.writeNumberField("total", pagination.total());
        json.writeNumberField("totalPages", pagination.totalPages());
        json.writeEndObject();
        json.writeEndObject();
    }

    private static void listed(RequestViews.Listed entry, JsonGenerator json) throws IOException {
        json.writeStartObject();
        member(entry.id(), entry.memberId(), entry.memberName(), entry.memberEmail(), entry.memberState(), json);
        items(entry.lineItems(), json);
        tail(entry.itemCount(), entry.statusSummary(), entry.status(), entry.createdAt(), entry.updatedAt(), json);
        json.writeEndObject();
    }

    private static void compat(RequestViews.CompatListed entry, JsonGenerator json) throws IOException {
        json.writeStartObject();
        member(entry.id(), entry.memberId(), entry.memberName(), entry.memberEmail(), entry.memberState(), json);
        string("drugId", entry.drugId(), json);
        string("prescriptionName", entry.prescriptionName(), json);
        string("dosage", entry.dosage(), json);
        items(entry.lineItems(), json);
        tail(entry.itemCount(), entry.statusSummary(), entry.status(), entry.createdAt(), entry.updatedAt(), json);
        json.writeEndObject();
    }

    private static void member(UUID id, UUID memberId, String name, String email, String state, JsonGenerator json)
            throws IOException {
        uuid("id", id, json);
        uuid("memberId", memberId, json);
        string("memberName", name, json);
        string("memberEmail", email, json);
        string("memberState", state, json);
    }

    private static void items(java.util.List<RequestViews.CompactItem> items, JsonGenerator json) throws IOException {
        json.writeArrayFieldStart("lineItems");
        for (RequestViews.CompactItem item : items) {
            json.writeStartObject();
            uuid("itemId", item.itemId(), json);
            string("drugId", item.drugId(), json);
            string("drugName", item.drugName(), json);
            string("dosage", item.dosage(), json);
            string("status", item.status(), json);
            uuid("prescriberId", item.prescriberId(), json);
            string("trackingNumber", item.trackingNumber(), json);
            string("shipCarrier", item.shipCarrier(), json);
            string("deliveryStatus", item.deliveryStatus(), json);
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private static void tail(int itemCount, String summary, String status, Instant createdAt, Instant updatedAt,
                             JsonGenerator json) throws IOException {
        json.writeNumberField("itemCount", itemCount);
        string("statusSummary", summary, json);
        string("status", status, json);
        timestamp("createdAt", createdAt, json);
        timestamp("updatedAt", updatedAt, json);
    }
}
