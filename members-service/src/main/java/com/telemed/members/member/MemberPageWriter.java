package com.telemed.members.member;

import static com.telemed.common.json.JsonFields.string;
import static com.telemed.common.json.JsonFields.timestamp;
import static com.telemed.common.json.JsonFields.uuid;

import com.fasterxml.jackson.core.JsonGenerator;
import com.telemed.common.json.OneBufferJsonWriter;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;

/**
 * A page of {@code GET /v1/members} written field by field with a streaming generator (issue 44), as requests-service's
 * {@code RequestPageWriter} writes its list: what the platform's ObjectMapper writes for {@link MemberViews.Page} (the
 * views' property order, nulls written, {@link com.telemed.common.json.JsonFields} for ids and instants), without its
 * per-call serializer lookups and reflection over some 500 values a page. {@code MemberPageWriterTest} holds it to the
 * ObjectMapper's bytes.
 */
@Provider
@Produces(MediaType.APPLICATION_JSON)
public class MemberPageWriter extends OneBufferJsonWriter<MemberViews.Page> {

    public MemberPageWriter() {
        super(MemberViews.Page.class, 16 * 1024);
    }

    /** The page: {@code {"members": [...], "pagination": {...}}}. */
    @Override
    protected void write(MemberViews.Page page, JsonGenerator json) throws IOException {
        json.writeStartObject();
        json.writeArrayFieldStart("members");
        for (MemberViews.WithRequests member : page.members()) {
            member(member, json);
        }
        json.writeEndArray();
        MemberViews.Pagination pagination = page.pagination();
        json.writeObjectFieldStart("pagination");
        json.writeNumberField("page", pagination.page());
        json.writeNumberField("limit", pagination.limit());
        json.writeNumberField("total", pagination.total());
        json.writeNumberField("totalPages", pagination.totalPages());
        json.writeEndObject();
        json.writeEndObject();
    }

    private static void member(MemberViews.WithRequests member, JsonGenerator json) throws IOException {
        json.writeStartObject();
        uuid("id", member.id(), json);
        string("firstName", member.firstName(), json);
        string("lastName", member.lastName(), json);
        string("email", member.email(), json);
        string("phone", member.phone(), json);
        string("dateOfBirth", member.dateOfBirth(), json);
        string("state", member.state(), json);
        string("status", member.status(), json);
        address("address", member.address(), json);
        address("shippingAddress", member.shippingAddress(), json);
        timestamp("createdAt", member.createdAt(), json);
        timestamp("updatedAt", member.updatedAt(), json);
        json.writeFieldName("requests");
        if (member.requests() == null) {
            json.writeNull();
        } else {
            json.writeStartArray();
            for (RequestSummary summary : member.requests()) {
                summary(summary, json);
            }
            json.writeEndArray();
        }
        json.writeEndObject();
    }

    private static void address(String name, AddressView address, JsonGenerator json) throws IOException {
        json.writeFieldName(name);
        if (address == null) {
            json.writeNull();
            return;
        }
        json.writeStartObject();
        string("street1", address.street1(), json);
        string("street2", address.street2(), json);
        string("city", address.city(), json);
        string("state", address.state(), json);
        string("zipCode", address.zipCode(), json);
        json.writeEndObject();
    }

    private static void summary(RequestSummary summary, JsonGenerator json) throws IOException {
        json.writeStartObject();
        uuid("id", summary.id(), json);
        string("drugId", summary.drugId(), json);
        string("prescriptionName", summary.prescriptionName(), json);
        string("dosage", summary.dosage(), json);
        string("status", summary.status(), json);
        string("caseNotes", summary.caseNotes(), json);
        timestamp("createdAt", summary.createdAt(), json);
        timestamp("updatedAt", summary.updatedAt(), json);
        json.writeEndObject();
    }
}
