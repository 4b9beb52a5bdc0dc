package com.telemed.requests.prescription;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@link RecordDigest} without a database: one value for one content however its numbers are
 * written, another as soon as any frozen field differs, none of the moving fields counted. The
 * canonical text and its digest are pinned: a change of either makes every stored digest disagree
 * with its record, so it must be a decision, never an accident.
 */
class RecordDigestTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String CANONICAL = "{\"clinical\":{\"classification\":\"Rx\","
            + "\"clinicalDose\":{\"unit\":\"mg\",\"value\":2.5},"
            + "\"concentration\":{\"activeUnit\":\"mg\",\"baseUnit\":\"mL\",\"value\":2.5},"
            + "\"daysSupply\":28,\"deaSchedule\":null,\"deviceUnits\":null,\"dispenseAsWritten\":false,"
            + "\"dosingIntervalDays\":7,\"drugName\":\"Semaglutide\",\"packageSize\":1.5,\"quantity\":30,"
            + "\"quantityUnits\":\"pens\",\"refills\":2,\"selectedSku\":\"0.25mg\",\"selectedSkuId\":\"sku_semaglutide_0\","
            + "\"sigText\":\"Inject 2.5 mg weekly\",\"volumeMl\":1},"
            + "\"drugId\":\"semaglutide\",\"expirationDate\":\"2027-03-04\","
            + "\"id\":\"11111111-1111-1111-1111-111111111111\",\"issuedAt\":\"2026-03-04T10:15:30.123Z\","
            + "\"lineItemId\":\"33333333-3333-3333-3333-333333333333\",\"memberId\":\"44444444-4444-4444-4444-444444444444\","
            + "\"partnerId\":\"partner-1\",\"pharmacyId\":\"pharmacy-1\",\"prescriberId\":\"55555555-5555-5555-5555-555555555555\","
            + "\"renewalOfId\":null,\"requestId\":\"22222222-2222-2222-2222-222222222222\",\"supersedesId\":null}";

    /** {@code printf '%s' "$CANONICAL" | sha256sum}. */
    private static final String DIGEST = "f64b470048c8136c4b535fe4e641a398dabdbd4dea4f01417a705ccd7dc882f1";

    /** The snapshot's fields by name, in the record's order: the sample, changed one at a time below. */
    private static Map<String, Object> sampleClinical() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("drugName", "Semaglutide");
        fields.put("selectedSku", "0.25mg");
        fields.put("selectedSkuId", "sku_semaglutide_0");
        fields.put("concentration", new ClinicalSnapshot.Concentration(new BigDecimal("2.50"), "mg", "mL"));
        fields.put("packageSize", new BigDecimal("1.50"));
        fields.put("clinicalDose", new ClinicalSnapshot.Dose(new BigDecimal("2.5"), "mg"));
        fields.put("volumeMl", BigDecimal.ONE);
        fields.put("deviceUnits", null);
        fields.put("dosingIntervalDays", 7);
        fields.put("quantity", new DecimalNode(new BigDecimal("30.0")));
        fields.put("quantityUnits", "pens");
        fields.put("daysSupply", 28);
        fields.put("sigText", "Inject 2.5 mg weekly");
        fields.put("refills", 2);
        fields.put("dispenseAsWritten", false);
        fields.put("classification", "Rx");
        fields.put("deaSchedule", null);
        return fields;
    }

    /** The snapshot of {@code fields} through its canonical constructor, which takes them in this order. */
    private static ClinicalSnapshot clinical(Map<String, Object> fields) {
        RecordComponent[] components = ClinicalSnapshot.class.getRecordComponents();
        assertEquals(Arrays.stream(components).map(RecordComponent::getName).toList(), List.copyOf(fields.keySet()));
        try {
            return ClinicalSnapshot.class
                    .getDeclaredConstructor(Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new))
                    .newInstance(fields.values().toArray());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ClinicalSnapshot clinical(String field, Object value) {
        Map<String, Object> fields = sampleClinical();
        fields.put(field, value);
        return clinical(fields);
    }

    private static PrescriptionRecord sample() {
        PrescriptionRecord record = new PrescriptionRecord();
        record.id = UUID.fromString("11111111-1111-1111-1111-111111111111");
        record.partnerId = "partner-1";
        record.requestId = UUID.fromString("22222222-2222-2222-2222-222222222222");
        record.lineItemId = UUID.fromString("33333333-3333-3333-3333-333333333333");
        record.memberId = UUID.fromString("44444444-4444-4444-4444-444444444444");
        record.prescriberId = UUID.fromString("55555555-5555-5555-5555-555555555555");
        record.pharmacyId = "pharmacy-1";
        record.drugId = "semaglutide";
        record.clinical = clinical(sampleClinical());
        record.status = PrescriptionRecord.ISSUED;
        // Microseconds, as PostgreSQL keeps them: the digest sees milliseconds, as the platform does.
        record.issuedAt = Instant.parse("2026-03-04T10:15:30.123456Z");
        record.expirationDate = "2027-03-04";
        record.createdAt = Instant.parse("2026-03-04T10:15:30.123Z");
        record.updatedAt = record.createdAt;
        return record;
    }

    private static PrescriptionRecord sample(Consumer<PrescriptionRecord> change) {
        PrescriptionRecord record = sample();
        change.accept(record);
        return record;
    }

    @Test
    void theCanonicalFormAndItsDigestArePinned() throws Exception {
        assertEquals(CANONICAL, RecordDigest.canonical(sample()));
        assertEquals(DIGEST, HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(CANONICAL.getBytes(StandardCharsets.UTF_8))));
        assertEquals(DIGEST, RecordDigest.of(sample()));
    }

    @Test
    void equalContentGivesOneDigestWhateverTheNumbersScaleOrNodeType() {
        String digest = RecordDigest.of(sample());
        assertEquals(digest, RecordDigest.of(sample()));
        assertTrue(digest.matches("[0-9a-f]{64}"), digest);
        // 30 and 30.0, as an int, a decimal or a double node: jsonb and Hibernate's mapper may give back any.
        for (JsonNode quantity : List.of(new IntNode(30), new DecimalNode(new BigDecimal("30")),
                new DecimalNode(new BigDecimal("3E+1")), new DoubleNode(30.0))) {
            assertEquals(digest, RecordDigest.of(sample(r -> r.clinical = clinical("quantity", quantity))), quantity::toString);
        }
        assertEquals(digest, RecordDigest.of(sample(r -> r.clinical = clinical("clinicalDose",
                new ClinicalSnapshot.Dose(new BigDecimal("2.500"), "mg")))));
        assertEquals(digest, RecordDigest.of(sample(r -> r.clinical = clinical("volumeMl", new BigDecimal("1E+0")))));
        assertEquals(digest, RecordDigest.of(sample(r -> r.issuedAt = Instant.parse("2026-03-04T10:15:30.123Z"))));
    }

    /** The status and its stamps move; createdAt is frozen by the trigger but is issuedAt's twin, not signed content. */
    @Test
    void theMovingFieldsAndCreatedAtAreNotPartOfIt() {
        String digest = RecordDigest.of(sample());
        Instant later = Instant.parse("2026-05-01T08:00:00Z");
        PrescriptionRecord moved = sample(r -> {
            r.sentToPharmacy("order-1", later);
            r.pharmacyProductId = 12;
            r.filledAt = later;
            r.cancelledAt = later;
            r.voidFor("reason", later);
            r.createdAt = later;
            r.digest = "0".repeat(64);
        });
        assertEquals(digest, RecordDigest.of(moved));
    }

    @Test
    void anyFrozenFieldThatChangesChangesIt() {
        Map<String, UnaryOperator<PrescriptionRecord>> changes = new LinkedHashMap<>();
        UUID other = UUID.fromString("99999999-9999-9999-9999-999999999999");
        changes.put("id", r -> set(r, x -> x.id = other));
        changes.put("partnerId", r -> set(r, x -> x.partnerId = "partner-2"));
        changes.put("requestId", r -> set(r, x -> x.requestId = other));
        changes.put("lineItemId", r -> set(r, x -> x.lineItemId = null));
        changes.put("memberId", r -> set(r, x -> x.memberId = other));
        changes.put("prescriberId", r -> set(r, x -> x.prescriberId = other));
        changes.put("pharmacyId", r -> set(r, x -> x.pharmacyId = "pharmacy-2"));
        changes.put("drugId", r -> set(r, x -> x.drugId = "tirzepatide"));
        changes.put("supersedesId", r -> set(r, x -> x.supersedesId = other));
        changes.put("renewalOfId", r -> set(r, x -> x.renewalOfId = other));
        changes.put("issuedAt", r -> set(r, x -> x.issuedAt = Instant.parse("2026-03-04T10:15:30.124Z")));
        changes.put("expirationDate", r -> set(r, x -> x.expirationDate = "2027-03-05"));
        changes.put("clinical", r -> set(r, x -> x.clinical = null));
        changes.put("clinicalDose.value 2.5 -> 2.6", r -> set(r, x -> x.clinical = clinical("clinicalDose",
                new ClinicalSnapshot.Dose(new BigDecimal("2.6"), "mg"))));
        changes.put("clinicalDose.unit", r -> set(r, x -> x.clinical = clinical("clinicalDose",
                new ClinicalSnapshot.Dose(new BigDecimal("2.5"), "mcg"))));
        changes.put("concentration.value", r -> set(r, x -> x.clinical = clinical("concentration",
                new ClinicalSnapshot.Concentration(new BigDecimal("5"), "mg", "mL"))));
        changes.put("concentration.activeUnit", r -> set(r, x -> x.clinical = clinical("concentration",
                new ClinicalSnapshot.Concentration(new BigDecimal("2.5"), "mcg", "mL"))));
        changes.put("concentration.baseUnit", r -> set(r, x -> x.clinical = clinical("concentration",
                new ClinicalSnapshot.Concentration(new BigDecimal("2.5"), "mg", "L"))));
        changes.put("quantity 30 -> \"30\"", r -> set(r, x -> x.clinical = clinical("quantity", new TextNode("30"))));
        changes.put("quantity 30 -> null", r -> set(r, x -> x.clinical = clinical("quantity", null)));
        // Every field of the snapshot, found by reflection: a field added later is covered without a word here.
        for (RecordComponent component : ClinicalSnapshot.class.getRecordComponents()) {
            Object changed = changed(component.getName(), sampleClinical().get(component.getName()));
            changes.put("clinical." + component.getName(), r -> set(r, x -> x.clinical = clinical(component.getName(), changed)));
        }

        Map<String, String> digests = new LinkedHashMap<>();
        digests.put("as signed", RecordDigest.of(sample()));
        changes.forEach((name, change) -> digests.put(name, RecordDigest.of(change.apply(sample()))));
        assertEquals(changes.size() + 1, digests.size());
        Set<String> distinct = new HashSet<>(digests.values());
        assertEquals(digests.size(), distinct.size(), digests::toString);
        // The ones the issue names, spelled out.
        assertNotEquals(digests.get("as signed"), digests.get("clinicalDose.value 2.5 -> 2.6"));
        assertNotEquals(digests.get("as signed"), digests.get("clinical.refills"));
        assertNotEquals(digests.get("as signed"), digests.get("clinical.sigText"));
        assertNotEquals(digests.get("as signed"), digests.get("drugId"));
    }

    private static PrescriptionRecord set(PrescriptionRecord record, Consumer<PrescriptionRecord> change) {
        change.accept(record);
        return record;
    }

    /** Another value of the sample's field, by its type; an unknown type fails so it gets one. */
    private static Object changed(String name, Object value) {
        if (value == null) {
            return switch (name) {
                case "deviceUnits" -> new BigDecimal("3");
                default -> "set";
            };
        }
        if (value instanceof String text) {
            return text + " changed";
        } else if (value instanceof BigDecimal number) {
            return number.add(BigDecimal.ONE);
        } else if (value instanceof Integer number) {
            return number + 1;
        } else if (value instanceof Boolean bool) {
            return !bool;
        } else if (value instanceof JsonNode node) {
            return new DecimalNode(node.decimalValue().add(BigDecimal.ONE));
        } else if (value instanceof ClinicalSnapshot.Concentration concentration) {
            return new ClinicalSnapshot.Concentration(concentration.value().add(BigDecimal.ONE), concentration.activeUnit(),
                    concentration.baseUnit());
        } else if (value instanceof ClinicalSnapshot.Dose dose) {
            return new ClinicalSnapshot.Dose(dose.value().add(BigDecimal.ONE), dose.unit());
        }
        throw new AssertionError("no other value for " + name + " (" + value.getClass() + "): add one here");
    }

    @Test
    void theCanonicalFormNamesEverySnapshotField() throws Exception {
        JsonNode clinical = JSON.readTree(RecordDigest.canonical(sample())).get("clinical");
        assertEquals(sorted(Arrays.stream(ClinicalSnapshot.class.getRecordComponents()).map(RecordComponent::getName).toList()),
                names(clinical));
        assertEquals(List.of("activeUnit", "baseUnit", "value"), names(clinical.get("concentration")));
        assertEquals(List.of("unit", "value"), names(clinical.get("clinicalDose")));
    }

    @Test
    void aRecordWithoutItsDigestIsNotIntact() {
        PrescriptionRecord record = sample();
        assertFalse(record.intact());
        record.digest = RecordDigest.of(record);
        assertTrue(record.intact());
        record.clinical = clinical("sigText", "Inject 5 mg weekly");
        assertFalse(record.intact());
    }

    private static List<String> sorted(List<String> names) {
        List<String> copy = new ArrayList<>(names);
        copy.sort(null);
        return copy;
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }
}
