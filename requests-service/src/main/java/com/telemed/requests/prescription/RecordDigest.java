package com.telemed.requests.prescription;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.json.Timestamps;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The digest of a prescription record as signed: SHA-256, lowercase hex, of the canonical JSON of
 * its frozen fields (the links, the clinical snapshot, {@code issuedAt} and
 * {@code expirationDate}; never the status or the fulfilment stamps, which move).
 *
 * <p>The canonical form must not depend on how the record reached memory: at signing the snapshot
 * holds what the console's mapper bound (decimals as {@link BigDecimal}, {@code quantity} as a
 * decimal node), re-read it holds what PostgreSQL's jsonb gave back through Hibernate's own mapper
 * (jsonb may change a number's scale or notation, {@code 1E+1} comes back as {@code 10}, and a
 * fractional {@code quantity} comes back as a double node). So: object keys sorted at every level,
 * nulls kept as {@code null}, every number written as
 * {@code BigDecimal.stripTrailingZeros().toPlainString()} ({@code 30} and {@code 30.0} are one
 * number), timestamps as {@link Timestamps#format} (UTC, milliseconds: PostgreSQL keeps
 * microseconds, the platform's instants have milliseconds). A double node's value is taken through
 * {@link BigDecimal#valueOf(double)}, exact for the amounts the console accepts (at most 1,000,000
 * with six decimals, well inside a double's 15 significant digits).
 *
 * <p>The fields are named one by one, not found by reflection: what is signed is a decision, and
 * {@code RecordDigestTest} fails when the snapshot gains a field this class does not name.
 */
public final class RecordDigest {

    private static final JsonFactory JSON = new JsonFactory();

    private RecordDigest() {
    }

    /** SHA-256 of {@link #canonical}, 64 lowercase hex characters. */
    public static String of(PrescriptionRecord record) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(canonical(record).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** The canonical JSON of the record's frozen fields (see the class comment). */
    static String canonical(PrescriptionRecord record) {
        Map<String, Object> fields = new TreeMap<>();
        fields.put("id", record.id);
        fields.put("partnerId", record.partnerId);
        fields.put("requestId", record.requestId);
        fields.put("lineItemId", record.lineItemId);
        fields.put("memberId", record.memberId);
        fields.put("prescriberId", record.prescriberId);
        fields.put("pharmacyId", record.pharmacyId);
        fields.put("drugId", record.drugId);
        fields.put("supersedesId", record.supersedesId);
        fields.put("renewalOfId", record.renewalOfId);
        fields.put("clinical", clinical(record.clinical));
        fields.put("issuedAt", record.issuedAt);
        fields.put("expirationDate", record.expirationDate);
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = JSON.createGenerator(out)) {
            write(generator, fields);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** Every field of the snapshot. */
    private static Map<String, Object> clinical(ClinicalSnapshot c) {
        if (c == null) {
            return null;
        }
        Map<String, Object> fields = new TreeMap<>();
        fields.put("drugName", c.drugName());
        fields.put("selectedSku", c.selectedSku());
        fields.put("selectedSkuId", c.selectedSkuId());
        fields.put("concentration", concentration(c.concentration()));
        fields.put("packageSize", c.packageSize());
        fields.put("clinicalDose", dose(c.clinicalDose()));
        fields.put("volumeMl", c.volumeMl());
        fields.put("deviceUnits", c.deviceUnits());
        fields.put("dosingIntervalDays", c.dosingIntervalDays());
        fields.put("quantity", c.quantity());
        fields.put("quantityUnits", c.quantityUnits());
        fields.put("daysSupply", c.daysSupply());
        fields.put("sigText", c.sigText());
        fields.put("refills", c.refills());
        fields.put("dispenseAsWritten", c.dispenseAsWritten());
        fields.put("classification", c.classification());
        fields.put("deaSchedule", c.deaSchedule());
        return fields;
    }

    private static Map<String, Object> concentration(ClinicalSnapshot.Concentration concentration) {
        if (concentration == null) {
            return null;
        }
        Map<String, Object> fields = new TreeMap<>();
        fields.put("value", concentration.value());
        fields.put("activeUnit", concentration.activeUnit());
        fields.put("baseUnit", concentration.baseUnit());
        return fields;
    }

    private static Map<String, Object> dose(ClinicalSnapshot.Dose dose) {
        if (dose == null) {
            return null;
        }
        Map<String, Object> fields = new TreeMap<>();
        fields.put("value", dose.value());
        fields.put("unit", dose.unit());
        return fields;
    }

    private static void write(JsonGenerator out, Object value) throws IOException {
        if (value == null) {
            out.writeNull();
        } else if (value instanceof Map<?, ?> map) {
            out.writeStartObject();
            for (Map.Entry<?, ?> field : new TreeMap<>(map).entrySet()) {
                out.writeFieldName((String) field.getKey());
                write(out, field.getValue());
            }
            out.writeEndObject();
        } else if (value instanceof String text) {
            out.writeString(text);
        } else if (value instanceof Boolean bool) {
            out.writeBoolean(bool);
        } else if (value instanceof BigDecimal decimal) {
            out.writeNumber(plain(decimal));
        } else if (value instanceof Integer number) {
            out.writeNumber(plain(BigDecimal.valueOf(number)));
        } else if (value instanceof UUID id) {
            out.writeString(id.toString());
        } else if (value instanceof Instant instant) {
            out.writeString(Timestamps.format(instant));
        } else if (value instanceof JsonNode node) {
            writeTree(out, node);
        } else {
            throw new IllegalArgumentException("no canonical form for " + value.getClass().getName());
        }
    }

    /** A tree as {@link #write} writes the same values: keys sorted, numbers plain and stripped. */
    private static void writeTree(JsonGenerator out, JsonNode node) throws IOException {
        if (node.isNull() || node.isMissingNode()) {
            out.writeNull();
        } else if (node.isObject()) {
            List<String> names = new ArrayList<>();
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                names.add(it.next());
            }
            names.sort(null);
            out.writeStartObject();
            for (String name : names) {
                out.writeFieldName(name);
                writeTree(out, node.get(name));
            }
            out.writeEndObject();
        } else if (node.isArray()) {
            out.writeStartArray();
            for (JsonNode element : node) {
                writeTree(out, element);
            }
            out.writeEndArray();
        } else if (node.isNumber()) {
            out.writeNumber(plain(node.decimalValue()));
        } else if (node.isTextual()) {
            out.writeString(node.textValue());
        } else if (node.isBoolean()) {
            out.writeBoolean(node.booleanValue());
        } else {
            throw new IllegalArgumentException("no canonical form for a " + node.getNodeType() + " node");
        }
    }

    /** One text per number: {@code 30}, {@code 30.0} and {@code 3E+1} all give {@code 30}. */
    private static String plain(BigDecimal number) {
        return number.stripTrailingZeros().toPlainString();
    }
}
