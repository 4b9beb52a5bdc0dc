package com.telemed.web.ops;

import com.telemed.web.page.Refusal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.telemed.common.error.ApiException;
import com.telemed.common.remote.Answers;
import com.telemed.common.remote.RemoteCalls;
import com.telemed.common.remote.RemoteService;
import com.telemed.web.page.ServiceUrls;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jboss.resteasy.reactive.client.api.ClientMultipartForm;

/**
 * The one way the console talks to the gateway's {@code /ops} API (on its main HTTP port,
 * {@code web.service-urls.gateway}), as the signed-in person: {@code Authorization: Bearer <token>}, and
 * the service proof every call of the web service carries (platform-commons' {@link RemoteCalls}: the
 * gateway checks none on {@code /ops} and drops it; the remote-call policy's timeouts, one retry and
 * circuit breaker, {@code 503} when the gateway is down). A status the operation answers on purpose
 * comes back as an {@link Refusal}; {@code 401} as {@link SignedOut} (but for the sign-in itself).
 */
@ApplicationScoped
public class OpsClient {

    private static final Answers SIGN_IN = Answers.of(400, 401, 404, 429);
    private static final Answers READ = Answers.of(400, 401, 403, 404);
    private static final Answers CHANGE = Answers.of(400, 401, 403, 404, 409);
    private static final Answers UPLOAD = Answers.of(400, 401, 403, 404, 413);
    /** The threads of one page the console reads at most, and the pages of a thread it reads at most. */
    public static final int PAGE = 100;
    static final int THREAD_PAGES = 10;

    private final OpsApi api;
    private final RemoteService gateway;
    /**
     * The nav's unread count, asked on every console page: a breaker of its own, so that a messaging-service
     * outage (the gateway's 503s on it) never opens the breaker of the console's own calls.
     */
    private final RemoteService unreadCount;

    public OpsClient(ServiceUrls urls, RemoteCalls calls) {
        this.api = calls.client(OpsApi.class, urls.gatewayUrl());
        this.gateway = calls.service("gateway");
        this.unreadCount = calls.service("gateway-unread-count");
    }

    /**
     * {@code POST /ops/v1/sessions}: {@code 400}, {@code 401}, {@code 404} (local accounts off at the gateway) and
     * {@code 429} come back as {@link Refusal}s.
     */
    public OpsApi.SessionToken signIn(String email, String password) {
        try {
            return gateway.call("sign-in", SIGN_IN, () -> api.signIn(new OpsApi.Credentials(email, password)));
        } catch (WebApplicationException answered) {
            throw Refusal.of(answered);
        }
    }

    public OpsApi.Current current(String token) {
        return call("session-current", READ, () -> api.current(bearer(token)));
    }

    public void signOut(String token) {
        call("sign-out", READ, () -> {
            api.signOut(bearer(token));
            return null;
        });
    }

    /** The queue; each filter null when not used. */
    public List<OpsApi.Reviewed> queue(String token, String drugId, String partnerId, String prescriberId) {
        OpsApi.Queue queue = call("review-queue", READ, () -> api.queue(bearer(token), drugId, partnerId, prescriberId));
        return queue == null || queue.requests() == null ? List.of() : queue.requests();
    }

    public OpsApi.RequestDetail request(String token, String id) {
        return call("request-read", READ, () -> api.request(bearer(token), id));
    }

    public void claim(String token, String id, JsonNode body) {
        call("request-claim", CHANGE, () -> api.claim(bearer(token), id, body));
    }

    /** {@code decision}: {@code approve}, {@code deny} or {@code request-consultation}. */
    public void decide(String token, String id, String itemId, String decision, JsonNode body) {
        call("item-" + decision, CHANGE, () -> api.decide(bearer(token), id, itemId, decision, body));
    }

    public OpsApi.AuditPage audit(String token, String actor, String action, String targetId, String after) {
        return call("audit", READ, () -> api.audit(bearer(token), actor, action, targetId, after));
    }

    // Administration (console.admin). The keys a partner's creation and a rotation answer are shown once
    // and never logged: the remote-call policy logs the service, the operation and the status only.

    public OpsApi.PartnerCreated createPartner(String token, JsonNode body) {
        return call("partner-create", CHANGE, () -> api.createPartner(bearer(token), body));
    }

    public OpsApi.Partner partner(String token, String id) {
        OpsApi.PartnerEnvelope envelope = call("partner-read", READ, () -> api.partner(bearer(token), id));
        return envelope == null ? null : envelope.partner();
    }

    public OpsApi.ApiKey rotateApiKey(String token, String id) {
        return call("partner-rotate-api-key", CHANGE, () -> api.rotateApiKey(bearer(token), id));
    }

    public List<OpsApi.Account> accounts(String token) {
        OpsApi.Accounts accounts = call("accounts", READ, () -> api.accounts(bearer(token)));
        return accounts == null || accounts.accounts() == null ? List.of() : accounts.accounts();
    }

    public void createAccount(String token, JsonNode body) {
        call("account-create", CHANGE, () -> api.createAccount(bearer(token), body));
    }

    public void deleteAccount(String token, String id) {
        call("account-delete", CHANGE, () -> {
            api.deleteAccount(bearer(token), id);
            return null;
        });
    }

    /** A partner's webhook deliveries, newest first; {@code event} null when not filtered. */
    public List<OpsApi.Delivery> deliveries(String token, String partnerId, String event) {
        OpsApi.Deliveries deliveries = call("webhook-deliveries", READ, () -> api.deliveries(bearer(token), partnerId, event));
        return deliveries == null || deliveries.deliveries() == null ? List.of() : deliveries.deliveries();
    }

    public void redeliver(String token, String partnerId, String deliveryId) {
        call("webhook-redeliver", CHANGE, () -> api.redeliver(bearer(token), partnerId, deliveryId));
    }

    /** The signed-in prescriber's appointments, from now for 31 days (the API's defaults), by start time. */
    public List<OpsApi.Appointment> appointments(String token) {
        OpsApi.AppointmentList list = call("appointment-list", READ, () -> api.appointments(bearer(token)));
        return list == null || list.appointments() == null ? List.of() : list.appointments();
    }

    public void outcome(String token, String id, JsonNode body) {
        call("appointment-outcome", CHANGE, () -> api.outcome(bearer(token), id, body));
    }

    /** A prescriber's weekly hours; {@code 404} ({@code Availability not set}) comes back as an {@link Refusal}. */
    public OpsApi.Availability availability(String token, String prescriberId) {
        OpsApi.AvailabilityEnvelope envelope = call("availability-read", READ, () -> api.availability(bearer(token), prescriberId));
        return envelope == null ? null : envelope.availability();
    }

    public void putAvailability(String token, String prescriberId, JsonNode body) {
        call("availability-update", CHANGE, () -> api.putAvailability(bearer(token), prescriberId, body));
    }

    /** A page of threads, unread first; {@code after} the previous page's cursor or null; {@code limit} null for the API's 50. */
    public OpsApi.ConversationPage conversations(String token, boolean unreadOnly, String after, Integer limit) {
        OpsApi.ConversationPage page = call("conversation-list", READ,
                () -> api.conversations(bearer(token), unreadOnly ? "true" : null, limit, after));
        if (page == null || page.conversations() == null) {
            throw new ApiException(503, "Service Unavailable");
        }
        return page;
    }

    /**
     * The first page of the threads with unread patient messages ({@code unread=true&limit=100}), for the
     * nav's count: through its own circuit breaker ({@link #unreadCount}).
     */
    public OpsApi.ConversationPage unreadThreads(String token) {
        OpsApi.ConversationPage page = call(unreadCount, "conversation-unread-count", READ,
                () -> api.conversations(bearer(token), "true", PAGE, null));
        if (page == null || page.conversations() == null) {
            throw new ApiException(503, "Service Unavailable");
        }
        return page;
    }

    /**
     * A thread, its messages oldest first: the pages of {@code GET /ops/v1/conversations/{id}/messages}
     * followed to the end, {@value #THREAD_PAGES} of {@value #PAGE} at most (the oldest then).
     */
    public OpsApi.Thread thread(String token, String id) {
        List<OpsApi.Message> messages = new ArrayList<>();
        OpsApi.Conversation conversation = null;
        String cursor = null;
        for (int page = 0; page < THREAD_PAGES; page++) {
            String after = cursor;
            OpsApi.Thread read = call("conversation-read", READ, () -> api.thread(bearer(token), id, PAGE, after));
            if (read == null || read.conversation() == null || read.messages() == null) {
                throw new ApiException(503, "Service Unavailable");
            }
            conversation = read.conversation();
            messages.addAll(read.messages());
            cursor = read.nextCursor();
            if (cursor == null) {
                break;
            }
        }
        return new OpsApi.Thread(conversation, messages, cursor);
    }

    public void markRead(String token, String id) {
        call("conversation-mark-read", CHANGE, () -> api.markRead(bearer(token), id, JsonNodeFactory.instance.objectNode()));
    }

    public void reply(String token, String id, JsonNode body) {
        call("conversation-reply", CHANGE, () -> api.reply(bearer(token), id, body));
    }

    /** The file as one part named {@code file}, its name and type as the browser sent them. */
    public void attach(String token, String id, String fileName, java.nio.file.Path file, String contentType) {
        call("conversation-attach", UPLOAD, () -> api.attach(bearer(token), id,
                ClientMultipartForm.create().binaryFileUpload("file", fileName, file.toString(), contentType)));
    }

    public void handOff(String token, String id, String messageId, JsonNode body) {
        call("message-handoff", CHANGE, () -> api.handOff(bearer(token), id, messageId, body));
    }

    // Catalogue and people (console.admin).

    /** Every drug with its pharmacy, as the catalogue lists them. */
    public List<OpsApi.Drug> drugs(String token) {
        OpsApi.Drugs drugs = call("drug-list", READ, () -> api.drugs(bearer(token)));
        if (drugs == null || drugs.drugs() == null) {
            throw new ApiException(503, "Service Unavailable");
        }
        return drugs.drugs();
    }

    /** Creates or replaces a drug; {@code 400} issues come back as an {@link Refusal}. */
    public void putDrug(String token, String drugId, JsonNode body) {
        call("drug-put", CHANGE, () -> api.putDrug(bearer(token), drugId, body));
    }

    public OpsApi.Survey survey(String token, String surveyId) {
        OpsApi.SurveyEnvelope envelope = call("survey-read", READ, () -> api.survey(bearer(token), surveyId));
        return envelope == null ? null : envelope.survey();
    }

    public void putSurvey(String token, String surveyId, JsonNode body) {
        call("survey-put", CHANGE, () -> api.putSurvey(bearer(token), surveyId, body));
    }

    public OpsApi.Prescriber createPrescriber(String token, JsonNode body) {
        OpsApi.PrescriberEnvelope envelope = call("prescriber-create", CHANGE, () -> api.createPrescriber(bearer(token), body));
        return envelope == null ? null : envelope.prescriber();
    }

    public OpsApi.Prescriber prescriber(String token, String id) {
        OpsApi.PrescriberEnvelope envelope = call("prescriber-read", READ, () -> api.prescriber(bearer(token), id));
        return envelope == null ? null : envelope.prescriber();
    }

    // Operations (console.operations). A pharmacy key is shown once and never logged (the policy logs the
    // service, the operation and the status only).

    public OpsApi.PharmacyKey issuePharmacyKey(String token, String pharmacyId) {
        return call("pharmacy-key-issue", CHANGE, () -> api.issuePharmacyKey(bearer(token), pharmacyId));
    }

    public void revokePharmacyKey(String token, String pharmacyId, String credentialId) {
        call("pharmacy-key-revoke", CHANGE, () -> {
            api.revokePharmacyKey(bearer(token), pharmacyId, credentialId);
            return null;
        });
    }

    /** The items whose last transmission failed, newest first: the {@value #PAGE} newest (the API's most). */
    public List<OpsApi.FailedTransmission> failedTransmissions(String token) {
        OpsApi.FailedTransmissions failed = call("failed-transmissions", READ, () -> api.failedTransmissions(bearer(token), PAGE));
        if (failed == null || failed.items() == null) {
            throw new ApiException(503, "Service Unavailable");
        }
        return failed.items();
    }

    /** The operator's resend: a transmission that fails is still a {@code 200}, {@code success} false. */
    public OpsApi.SendOutcome sendToPharmacy(String token, String id, String itemId) {
        OpsApi.SendOutcome outcome = call("item-send-to-pharmacy", CHANGE, () -> api.sendToPharmacy(bearer(token), id, itemId));
        if (outcome == null || outcome.success() == null) {
            throw new ApiException(503, "Service Unavailable");
        }
        return outcome;
    }

    public void addNote(String token, String id, JsonNode body) {
        call("request-note", CHANGE, () -> api.addNote(bearer(token), id, body));
    }

    private <T> T call(String operation, Answers answers, Supplier<T> call) {
        return call(gateway, operation, answers, call);
    }

    /**
     * A change ({@code CHANGE}, {@code UPLOAD}) is sent once ({@link RemoteService#callOnce}): a decision whose answer
     * came too late must not be made again behind the person's back; the 503 page lets them send it knowingly.
     */
    private static <T> T call(RemoteService service, String operation, Answers answers, Supplier<T> call) {
        try {
            return answers == CHANGE || answers == UPLOAD ? service.callOnce(operation, answers, call)
                    : service.call(operation, answers, call);
        } catch (WebApplicationException answered) {
            if (answered.getResponse().getStatus() == 401) {
                throw new SignedOut();
            }
            throw Refusal.of(answered);
        }
    }

    private static String bearer(String token) {
        return "Bearer " + token;
    }

}
