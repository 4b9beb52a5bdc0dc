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
import java.util.List;
import java.util.Map;

/**
 * The answer of {@code POST /internal/requests/summaries} ({@link InternalRequestResource.Summaries}) written field by
 * field with a streaming generator (issue 44: every page of members-service's list asks it), as {@link RequestPageWriter}
 * writes the list: what the platform's ObjectMapper writes for it ({@link MemberRequests.Summary}'s property order,
 * nulls written, {@link com.telemed.common.json.JsonFields} for ids and instants). {@code SummariesWriterTest} holds it
 * to the ObjectMapper's bytes.
 */
@Provider
@Produces(MediaType.APPLICATION_JSON)
public class SummariesWriter extends OneBufferJsonWriter<InternalRequestResource.Summaries> {

    public SummariesWriter() {
        super(InternalRequestResource.Summaries.class, 4 * 1024);
    }

    /** {@code {"summaries": {"<memberId>": [summary, ...], ...}}}, members in the map's order. */
    @Override
    protected void write(InternalRequestResource.Summaries answer, JsonGenerator json) throws IOException {
        json.writeStartObject();
        json.writeFieldName("summaries");
        if (answer.summaries() == null) {
            json.writeNull();
        } else {
            json.writeStartObject();
            for (Map.Entry<String, List<MemberRequests.Summary>> member : answer.summaries().entrySet()) {
                json.writeArrayFieldStart(member.getKey());
                for (MemberRequests.Summary summary : member.getValue()) {
                    summary(summary, json);
                }
                json.writeEndArray();
            }
            json.writeEndObject();
        }
        json.writeEndObject();
    }

    private static void summary(MemberRequests.Summary summary, JsonGenerator json) throws IOException {
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
