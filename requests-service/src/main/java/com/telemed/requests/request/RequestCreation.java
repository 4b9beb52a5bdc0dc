package com.telemed.requests.request;

import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.common.json.Timestamps;
import com.telemed.requests.catalogue.CatalogueClient;
import com.telemed.requests.catalogue.DrugLookup;
import com.telemed.requests.member.MemberLookup;
import com.telemed.requests.member.MemberSnapshot;
import com.telemed.requests.survey.SurveyLinks;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * {@code POST /v1/requests}: validation, the member (by id, from requests-service's copy of it when
 * current, else from members-service; or find-or-create: {@link MemberLookup}), the drug checks
 * (requests-service's copy of the catalogue), then the request's rows in one statement
 * ({@link NewRequestRows}).
 *
 * <p>No database connection or lock is held across a call to another service: the member call (up
 * to the remote timeouts, retry included) runs with nothing open, and only then one statement
 * writes. That statement also takes the guards:
 * <ul>
 *   <li>Idempotency: a key (header, else body) already recorded for the partner answers the
 *       replay without touching the member. A new key is guarded by the unique index
 *       {@code (partner_id, idempotency_key)}: the insert waits for a running insert of the same
 *       key and writes nothing once that one committed, and the create then replays it. Of
 *       concurrent creates with one key (on any number of instances) the first to commit creates,
 *       the rest replay it. Nothing is recorded when the create fails, so a rejected body can be
 *       retried with the same key. Members created inline stay even then: members-service
 *       committed them (partner-api.md says so).</li>
 *   <li>Within one instance, creates with a key already in flight wait for it (no connection held)
 *       and then replay its request, so they make no member call (partner-api.md: no member
 *       changes on replay); they run the create themselves only if it failed.</li>
 *   <li>The member: a member whose delete requests-service agreed to
 *       ({@link com.telemed.requests.member.MemberDeletions}) is refused under the member's lock,
 *       so a member deleted while its lookup was answered and its insert came never gets a
 *       request.</li>
 *   <li>The survey response ({@code v2SurveyResponseId}): checked with the member and the drug
 *       ({@link SurveyLinks#check}), then taken for the request by the inserting statement only
 *       while still free: of concurrent creates with one response, one commits and the others
 *       roll back whole, so a refused create never leaves a request.</li>
 * </ul>
 */
@ApplicationScoped
public class RequestCreation {

    static final String MEMBER_NOT_FOUND = "Member not found";
    private static final Pattern DRUG_ID = Pattern.compile("[A-Za-z0-9_-]{1,128}");

    private final MemberLookup members;
    private final CatalogueClient catalogue;
    private final CopiedReads reads;
    private final NewRequestRows rows;
    /** Keyed creates running on this instance, by (partner, key); completed when they end. */
    private final Map<List<String>, CompletableFuture<Void>> inFlight = new ConcurrentHashMap<>();

    public RequestCreation(MemberLookup members, CatalogueClient catalogue, CopiedReads reads, NewRequestRows rows) {
        this.members = members;
        this.catalogue = catalogue;
        this.reads = reads;
        this.rows = rows;
    }

    /** The result: {@code replay} tells a 200 replay from a 201 create. */
    public record Outcome(Request request, boolean replay) {
    }

    /** Creates the request, or replays the one recorded with the same key ({@code headerKey} when not blank, else the body's). */
    public Outcome create(String partnerId, RequestInput input, String headerKey) {
        String key = headerKey != null && !headerKey.isBlank() ? headerKey : input.idempotencyKey();
        if (key == null) {
            return new Outcome(insert(partnerId, prepare(partnerId, input), null)
                    .orElseThrow(() -> new IllegalStateException("A create without a key found its key taken")), false);
        }
        List<String> flight = List.of(partnerId, key);
        while (true) {
            Optional<Request> recorded = recorded(partnerId, key);
            if (recorded.isPresent()) {
                return new Outcome(recorded.get(), true);
            }
            CompletableFuture<Void> mine = new CompletableFuture<>();
            CompletableFuture<Void> running = inFlight.putIfAbsent(flight, mine);
            if (running != null) {
                // Another create with this key runs here: its end decides (replay, or our turn).
                running.join();
                continue;
            }
            try {
                // It may have committed between our look and our turn.
                recorded = recorded(partnerId, key);
                if (recorded.isPresent()) {
                    return new Outcome(recorded.get(), true);
                }
                Optional<Request> created = insert(partnerId, prepare(partnerId, input), key);
                if (created.isPresent()) {
                    return new Outcome(created.get(), false);
                }
                // Another instance's create with this key committed first: the next look replays it.
            } finally {
                inFlight.remove(flight, mine);
                mine.complete(null);
            }
        }
    }

    /** The request recorded with this key, read in a transaction of its own (no connection kept after it). */
    private static Optional<Request> recorded(String partnerId, String key) {
        return QuarkusTransaction.requiringNew().call(() -> Request.findByIdempotencyKey(partnerId, key));
    }

    /**
     * What the checks found: the member, for a prescription request the item and its drug, and
     * the survey response sent as {@code v2SurveyResponseId} (else null).
     */
    private record Prepared(MemberSnapshot member, RequestInput.ItemInput item, DrugLookup drug, SurveyLinks.Link survey,
                            RequestInput input) {
    }

    private Prepared prepare(String partnerId, RequestInput input) {
        RequestInput.ItemInput item = input.item();
        Optional<UUID> memberId = input.memberId() == null ? Optional.empty() : Ids.uuid(input.memberId());
        // A create by memberId with an item reads both copies in one round trip; the checks keep their order.
        CopiedReads.Both copied = memberId.isPresent() && item != null && DRUG_ID.matcher(item.drugId()).matches()
                && reads.drugsCopied() ? reads.read(partnerId, memberId.get(), item.drugId()) : null;
        MemberSnapshot member;
        if (input.memberId() == null) {
            member = members.inline(partnerId, input.member());
        } else {
            Optional<MemberSnapshot> found = copied == null ? members.byId(partnerId, input.memberId())
                    : members.byId(partnerId, input.memberId(), copied.member());
            member = found.orElseThrow(() -> ApiException.badRequest(MEMBER_NOT_FOUND));
        }
        SurveyLinks.Link survey = input.v2SurveyResponseId() == null ? null
                : SurveyLinks.check(partnerId, input.v2SurveyResponseId(), member.id());
        DrugLookup drug = item == null ? null
                : checkDrug(partnerId, item, copied == null ? null : copied.drug());
        return new Prepared(member, item, drug, survey, input);
    }

    /** {@code copied}: the drug's copy as already read (empty when it has none), or null when not read yet. */
    private DrugLookup checkDrug(String partnerId, RequestInput.ItemInput item, Optional<DrugLookup> copied) {
        String drugId = item.drugId();
        Optional<DrugLookup> found = !DRUG_ID.matcher(drugId).matches() ? Optional.empty()
                : copied == null ? catalogue.lookup(partnerId, drugId) : catalogue.lookup(partnerId, drugId, copied);
        DrugLookup drug = found.orElseThrow(() -> ApiException.badRequest("Invalid drugId - drug not found: " + drugId));
        if (!drug.orderable()) {
            throw new ApiException(403, "Partner does not have access to drug: " + drugId);
        }
        String skuId = item.requestedSkuId();
        if (skuId != null && drug.sku(skuId).isEmpty()) {
            throw ApiException.badRequest("Invalid requestedSkuId for " + drugId + ": " + skuId);
        }
        String dosage = item.dosage();
        if (dosage != null && !drug.dosages().contains(dosage)) {
            throw ApiException.badRequest("Invalid dosage for " + drugId + ". Available dosages: " + String.join(", ", drug.dosages()));
        }
        return drug;
    }

    /**
     * Writes the request's rows ({@link NewRequestRows}); empty when the key was recorded by another
     * create meanwhile. {@code 400 Member not found} when the member's delete was agreed meanwhile.
     */
    private Optional<Request> insert(String partnerId, Prepared prepared, String key) {
        Instant now = Timestamps.now();
        RequestInput input = prepared.input();
        Request request = new Request();
        request.id = UUID.randomUUID();
        request.partnerId = partnerId;
        request.memberId = prepared.member().id();
        request.memberName = prepared.member().name();
        request.memberEmail = prepared.member().email();
        request.memberDob = prepared.member().dateOfBirth();
        request.memberState = prepared.member().state();
        request.status = RequestStatus.PENDING;
        request.caseNotes = prepared.survey() == null ? input.caseNotes()
                : SurveyLinks.caseNotes(input.caseNotes(), prepared.survey().summary());
        request.surveyResponseId = input.v2SurveyResponseId();
        String sendAt = input.pharmacySendAt();
        request.pharmacySendAt = sendAt == null ? null : OffsetDateTime.parse(sendAt).toInstant();
        request.idempotencyKey = key;
        request.legacySingleDrug = input.legacySingleDrug();
        request.itemCount = prepared.item() == null ? 0 : 1;
        request.createdAt = now;
        request.updatedAt = now;
        LineItem item = prepared.item() == null ? null : newItem(request, prepared.item(), prepared.drug(), now);
        NewRequestRows.Autopilot autopilot = input.simulation() == null ? null : new NewRequestRows.Autopilot(
                input.simulation().outcome(), input.simulation().shipped(), now.plusSeconds(input.simulation().delaySeconds()));
        NewRequestRows.Written written = rows.write(request, item, prepared.survey(), autopilot);
        return switch (written) {
            case CREATED -> Optional.of(request);
            case KEY_TAKEN -> Optional.empty();
            case MEMBER_GONE -> throw ApiException.badRequest(MEMBER_NOT_FOUND);
            case SURVEY_TAKEN -> throw ApiException.badRequest(SurveyLinks.ALREADY_USED);
        };
    }

    private static LineItem newItem(Request request, RequestInput.ItemInput fields, DrugLookup drug, Instant now) {
        LineItem item = LineItem.pending(request, fields.drugId(), drug, now);
        item.dosage = fields.dosage();
        item.requestedSkuId = fields.requestedSkuId();
        item.requestedSku = fields.requestedSku();
        if (fields.requestedClinicalDose() != null) {
            item.requestedDoseValue = fields.requestedClinicalDose().value();
            item.requestedDoseUnit = fields.requestedClinicalDose().unit();
        }
        return item;
    }
}
