package com.telemed.requests.request;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.telemed.common.error.ApiException;
import com.telemed.common.json.Timestamps;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.StorableText;
import com.telemed.requests.catalogue.CatalogueClient;
import com.telemed.requests.catalogue.DrugLookup;
import com.telemed.requests.member.MemberRecord;
import com.telemed.requests.member.MembersClient;
import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * {@code POST /v1/requests}: validation, the member (by id or find-or-create), the drug checks
 * through catalogue-service, then the request and its item in one transaction.
 *
 * <p>Idempotency: a key (header, else body) already recorded for the partner answers the replay
 * without touching the member. A new key is claimed with a transaction-scoped advisory lock on
 * (partner, key) taken before anything else, held across the member and catalogue calls and
 * released at commit: concurrent creates with one key run one after the other, the first creates,
 * the rest find its row and replay. Nothing is recorded when the create fails (the transaction
 * rolls back), so a rejected body can be retried with the same key. Members created inline stay
 * even then: members-service committed them (partner-api.md says so).
 */
@ApplicationScoped
public class RequestCreation {

    static final String MEMBER_NOT_FOUND = "Member not found";
    static final String SURVEY_NOT_FOUND = "v2SurveyResponseId not found";
    private static final Pattern DRUG_ID = Pattern.compile("[A-Za-z0-9_-]{1,128}");

    private final MembersClient members;
    private final CatalogueClient catalogue;

    public RequestCreation(MembersClient members, CatalogueClient catalogue) {
        this.members = members;
        this.catalogue = catalogue;
    }

    /** The result: {@code replay} tells a 200 replay from a 201 create. */
    public record Outcome(Request request, boolean replay) {
    }

    public Outcome create(String partnerId, JsonNode body, String headerKey) {
        validate(body, headerKey);
        String key = headerKey != null && !headerKey.isBlank() ? headerKey : text(body, "idempotencyKey");
        if (key == null) {
            Prepared prepared = prepare(partnerId, body);
            return QuarkusTransaction.requiringNew().call(() -> new Outcome(insert(partnerId, prepared, null), false));
        }
        Optional<Request> recorded = Request.findByIdempotencyKey(partnerId, key);
        if (recorded.isPresent()) {
            return new Outcome(recorded.get(), true);
        }
        return QuarkusTransaction.requiringNew().call(() -> {
            lockKey(partnerId, key);
            Optional<Request> raced = Request.findByIdempotencyKey(partnerId, key);
            if (raced.isPresent()) {
                return new Outcome(raced.get(), true);
            }
            return new Outcome(insert(partnerId, prepare(partnerId, body), key), false);
        });
    }

    /**
     * The body's issues and the {@code Idempotency-Key} header's (path {@code ["Idempotency-Key"]},
     * first), all in one answer. A blank header is no key: the body's {@code idempotencyKey} counts.
     */
    private static void validate(JsonNode body, String headerKey) {
        Issues issues = new Issues();
        if (headerKey != null && !headerKey.isBlank()) {
            List<Object> path = List.of(IDEMPOTENCY_HEADER);
            RequestSchemas.IDEMPOTENCY_HEADER.validate(TextNode.valueOf(headerKey), path, issues);
            if (!StorableText.storable(headerKey)) {
                issues.custom(path, StorableText.INVALID_CHARACTER);
            }
        }
        RequestSchemas.create(Timestamps::now).validate(body, List.of(), issues);
        issues.throwIfAny();
    }

    static final String IDEMPOTENCY_HEADER = "Idempotency-Key";

    /** What the checks found: the member and, for a prescription request, the item and its drug. */
    private record Prepared(MemberRecord member, JsonNode item, DrugLookup drug, JsonNode body) {
    }

    private Prepared prepare(String partnerId, JsonNode body) {
        MemberRecord member = body.has("memberId")
                ? members.find(partnerId, body.get("memberId").textValue()).orElseThrow(() -> ApiException.badRequest(MEMBER_NOT_FOUND))
                : members.findOrCreate(partnerId, body.get("member"));
        if (body.has("v2SurveyResponseId")) {
            // Intake surveys arrive in a later issue: no response exists yet.
            throw ApiException.badRequest(SURVEY_NOT_FOUND);
        }
        JsonNode item = item(body);
        DrugLookup drug = item == null ? null : checkDrug(partnerId, item);
        return new Prepared(member, item, drug, body);
    }

    /** The one item: {@code items[0]}, else the legacy top-level single drug, else none (consultation). */
    private static JsonNode item(JsonNode body) {
        JsonNode items = body.get("items");
        if (items != null && !items.isEmpty()) {
            return items.get(0);
        }
        return body.has("drugId") ? body : null;
    }

    private DrugLookup checkDrug(String partnerId, JsonNode item) {
        String drugId = item.get("drugId").textValue();
        DrugLookup drug = (DRUG_ID.matcher(drugId).matches() ? catalogue.lookup(partnerId, drugId) : Optional.<DrugLookup>empty())
                .orElseThrow(() -> ApiException.badRequest("Invalid drugId - drug not found: " + drugId));
        if (!drug.orderable()) {
            throw new ApiException(403, "Partner does not have access to drug: " + drugId);
        }
        String skuId = text(item, "requestedSkuId");
        if (skuId != null && drug.sku(skuId).isEmpty()) {
            throw ApiException.badRequest("Invalid requestedSkuId for " + drugId + ": " + skuId);
        }
        String dosage = text(item, "dosage");
        if (dosage != null && !drug.dosages().contains(dosage)) {
            throw ApiException.badRequest("Invalid dosage for " + drugId + ". Available dosages: " + String.join(", ", drug.dosages()));
        }
        return drug;
    }

    private static Request insert(String partnerId, Prepared prepared, String key) {
        Instant now = Timestamps.now();
        JsonNode body = prepared.body();
        Request request = new Request();
        request.id = UUID.randomUUID();
        request.partnerId = partnerId;
        request.memberId = prepared.member().id();
        request.memberName = prepared.member().name();
        request.memberEmail = prepared.member().email();
        request.memberDob = prepared.member().dateOfBirth();
        request.memberState = prepared.member().state();
        request.status = RequestStatus.PENDING;
        request.caseNotes = text(body, "caseNotes");
        String sendAt = text(body, "pharmacySendAt");
        request.pharmacySendAt = sendAt == null ? null : OffsetDateTime.parse(sendAt).toInstant();
        request.idempotencyKey = key;
        request.itemCount = prepared.item() == null ? 0 : 1;
        request.createdAt = now;
        request.updatedAt = now;
        request.persist();
        UUID itemId = null;
        if (prepared.item() != null) {
            itemId = newItem(request, prepared.item(), prepared.drug(), now).id;
        }
        HistoryEntry.record(request.id, itemId, "created", HistoryEntry.API, null, now);
        return request;
    }

    private static LineItem newItem(Request request, JsonNode fields, DrugLookup drug, Instant now) {
        LineItem item = LineItem.pending(request, fields.get("drugId").textValue(), drug, now);
        item.dosage = text(fields, "dosage");
        item.requestedSkuId = text(fields, "requestedSkuId");
        item.requestedSku = text(fields, "requestedSku");
        JsonNode dose = fields.get("requestedClinicalDose");
        if (dose != null && !dose.isNull()) {
            item.requestedDoseValue = dose.get("value").decimalValue();
            item.requestedDoseUnit = dose.get("unit").textValue();
        }
        item.persist();
        return item;
    }

    private static void lockKey(String partnerId, String key) {
        Panache.getEntityManager()
                .createNativeQuery("SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtext('requests.idempotency:' || :partner), hashtext(:key))) AS locked")
                .setParameter("partner", partnerId)
                .setParameter("key", key)
                .getSingleResult();
    }

    static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.textValue();
    }
}
