package com.telemed.e2e.fuzz;

import static com.telemed.e2e.fuzz.Endpoint.Kind.DATE;
import static com.telemed.e2e.fuzz.Endpoint.Kind.ENUM;
import static com.telemed.e2e.fuzz.Endpoint.Kind.ID;
import static com.telemed.e2e.fuzz.Endpoint.Kind.NUMBER;
import static com.telemed.e2e.fuzz.Endpoint.Kind.TEXT;
import static com.telemed.e2e.fuzz.Endpoint.Surface.EMBED;
import static com.telemed.e2e.fuzz.Endpoint.Surface.OPS;
import static com.telemed.e2e.fuzz.Endpoint.Surface.PARTNER;
import static com.telemed.e2e.fuzz.Endpoint.param;
import static com.telemed.e2e.fuzz.Endpoint.requiredParam;
import static com.telemed.testkit.platform.PlatformService.BILLING;
import static com.telemed.testkit.platform.PlatformService.CATALOGUE;
import static com.telemed.testkit.platform.PlatformService.GATEWAY;
import static com.telemed.testkit.platform.PlatformService.MEMBERS;
import static com.telemed.testkit.platform.PlatformService.MESSAGING;
import static com.telemed.testkit.platform.PlatformService.REQUESTS;
import static com.telemed.testkit.platform.PlatformService.WEBHOOK;

import com.telemed.testkit.platform.PlatformService;
import java.util.List;
import java.util.Optional;

/**
 * THE table of endpoints the bad-input property covers: every partner, embed and operator
 * endpoint the gateway routes, with the service that owns it (whose database must not change when
 * a call is refused), valid bodies and query parameters to start mutating from, and which fixture
 * resources a successful call uses up.
 *
 * <p><b>A new endpoint joins here</b>, in its surface's section: a line with its method, path
 * ({@code {slot}} for ids the fixture fills, see {@link Slot}), owner, a valid body per shape it
 * accepts ({@code "$slot"} for fixture values; {@code upload()} for an upload, whose bodies are
 * {@link Multipart}'s), its query parameters ({@code requiredParam} for one it refuses every call
 * without) and the body's name fields ({@code names}: a name with a line-breaking character must
 * be refused); {@code keptWhenRefused} names a table a refusal may still write, by contract. Routes the gateway already sends to a service that does not
 * serve them yet are listed with {@code notServedYet()} (they must answer a JSON 404 whatever they
 * are sent); the issue that serves one removes the mark and gives it its bodies.
 */
public final class Endpoints {

    private static final String ADDRESS = """
            {"street1": "1 Main St", "street2": "Apt 2", "city": "Springfield", "state": "IL", "zipCode": "62701"}""";
    private static final String SHIPPING = """
            {"street1": "2 Elm St", "city": "Springfield", "state": "IL", "zipCode": "62701-1234"}""";
    private static final String MEMBER = """
            {"firstName": "Ann", "lastName": "Lee", "email": "ann.lee@example.com", "phone": "555-0100",
             "gender": "f", "dateOfBirth": "1980-01-02", "state": "IL", "address": %s, "shippingAddress": %s}"""
            .formatted(ADDRESS, SHIPPING);
    private static final String PRESCRIPTION = """
            {"skuId": "$sku", "quantity": 30, "quantityUnits": "tablets", "daysSupply": 30, "directions": "One daily",
             "refills": 1, "dispenseAsWritten": false, "clinicalDose": {"value": 2.5, "unit": "mg"}, "dosingIntervalDays": 7}""";

    public static final List<Endpoint> ALL = List.of(
            // ---- Partner API (x-api-key) -------------------------------------------------------
            partner("GET", "/v1/drugs", CATALOGUE),

            partner("POST", "/v1/members", MEMBERS).body(MEMBER).names("firstName", "lastName"),
            partner("GET", "/v1/members", MEMBERS).query(
                    param("page", NUMBER, "1"), param("limit", NUMBER, "20"), param("search", TEXT, "lee"),
                    param("status", ENUM, "active")),
            partner("GET", "/v1/members/{member}", MEMBERS),
            partner("PUT", "/v1/members/{member}", MEMBERS).body("""
                    {"firstName": "Ann", "lastName": "Lee", "email": "ann.lee@example.com", "phone": null,
                     "dateOfBirth": "1980-01-02", "state": "IL", "address": %s, "shippingAddress": null, "status": "active"}"""
                    .formatted(ADDRESS)).names("firstName", "lastName"),
            partner("DELETE", "/v1/members/{member}", MEMBERS).invalidates(Fixture.Part.MEMBER),

            partner("POST", "/v1/requests", REQUESTS).body(
                    """
                    {"memberId": "$member", "items": [{"drugId": "$drug", "requestedSkuId": "$sku", "requestedSku": "1 mg",
                     "requestedClinicalDose": {"value": 2.5, "unit": "mg"}}], "caseNotes": "Fuzz notes",
                     "pharmacySendAt": "2099-01-01T00:00:00Z", "idempotencyKey": "$fresh"}""",
                    """
                    {"member": %s, "items": [{"drugId": "$drug", "dosage": "$skuLabel",
                     "requestedClinicalDose": {"value": 0.25, "unit": "mg"}}], "caseNotes": "Fuzz notes",
                     "pharmacySendAt": "2099-06-30T12:00:00+02:00"}""".formatted(MEMBER),
                    """
                    {"memberId": "$member", "drugId": "$drug", "dosage": "$skuLabel", "requestedSkuId": "$sku",
                     "requestedClinicalDose": {"value": 5, "unit": "mg"}, "caseNotes": "Legacy single drug"}""",
                    """
                    {"memberId": "$member", "caseNotes": "Consultation", "v2SurveyResponseId": "$response"}""",
                    """
                    {"memberId": "$member", "items": [{"drugId": "$drug", "requestedSkuId": "$sku"}],
                     "v2SurveyResponseId": "$response"}""")
                    // A survey-backed create links the response to the request: it backs no other.
                    .invalidates(Fixture.Part.RESPONSE).names("member.firstName", "member.lastName")
                    // A create refused after its member was read keeps requests-service's copy of that member (read
                    // through from members-service, or the inline member found or created there, which stays:
                    // partner-api.md, requests-service README).
                    .keptWhenRefused("member_copies"),
            partner("GET", "/v1/requests", REQUESTS).query(
                    param("startDate", DATE, "2020-01-01"), param("endDate", DATE, "2099-12-31T23:59:59Z"),
                    param("status", ENUM, "pending"), param("page", NUMBER, "1"), param("limit", NUMBER, "20")),
            partner("GET", "/v1/requests/{request}", REQUESTS),
            partner("DELETE", "/v1/requests/{request}", REQUESTS).invalidates(Fixture.Part.REQUEST),
            partner("POST", "/v1/requests/{request}/cancel", REQUESTS).body("""
                    {"reason": "Changed their mind", "itemIds": ["$item"]}""").invalidates(Fixture.Part.REQUEST),

            // The fixture's item is pending (the send is refused); one a call approved is made anew before the next.
            partner("POST", "/v1/requests/{request}/items/{item}/send-to-pharmacy", REQUESTS).invalidates(Fixture.Part.REQUEST),
            // Sandbox simulation (issue #42): the fixture's item is pending; a simulated denial decides it.
            partner("POST", "/v1/sandbox/requests/{request}/simulate", REQUESTS).body("""
                    {"action": "deny", "itemId": "$item", "reason": "Simulated denial"}""").invalidates(Fixture.Part.REQUEST),
            partner("GET", "/v1/billing", BILLING).query(param("period", TEXT, "2026-11")),
            // The partner's own webhook settings (partner-extensions.md), as the operator's calls below.
            partner("GET", "/v1/webhook", WEBHOOK),
            partner("PUT", "/v1/webhook", WEBHOOK).body("""
                    {"url": "$webhookUrl"}"""),
            partner("POST", "/v1/webhook/secret/rotate", WEBHOOK),

            // Events (partner-extensions.md): the fixture partner's, from the start or after its event; one event; its
            // redelivery and the test webhook (both 409: the fixture partner has no URL).
            partner("GET", "/v1/events", WEBHOOK).query(param("limit", NUMBER, "20"), param("types", ENUM, "item.approved"),
                    param("after", ID, Slot.EVENT)),
            partner("GET", "/v1/events/{event}", WEBHOOK),
            partner("POST", "/v1/events/{event}/redeliver", WEBHOOK),
            partner("POST", "/v1/webhooks/test", WEBHOOK),
            // The patient's file (Multipart.BASELINES): a stored one adds a message to the fixture's conversation, which stays.
            partner("POST", "/v1/messages/conversations/{conversation}/attachments", MESSAGING).upload(),
            partner("POST", "/v1/messages/conversations/for-member", MESSAGING).body("""
                    {"memberId": "$member"}"""),
            partner("POST", "/v1/messages/conversations", MESSAGING).body("""
                    {"memberId": "$member", "prescriberId": "$prescriber"}"""),
            partner("GET", "/v1/messages/conversations", MESSAGING).query(requiredParam("memberId", ID, Slot.MEMBER)),
            partner("GET", "/v1/messages/conversations/{conversation}", MESSAGING),
            partner("POST", "/v1/messages/conversations/{conversation}/messages", MESSAGING).body("""
                    {"text": "Hello"}"""),
            partner("GET", "/v1/messages/conversations/{conversation}/messages", MESSAGING).query(
                    param("limit", NUMBER, "50"), param("cursor", TEXT, Slot.CURSOR)),
            partner("POST", "/v1/messages/conversations/{conversation}/read", MESSAGING),
            partner("GET", "/v1/messages/unread-count", MESSAGING).query(requiredParam("memberId", ID, Slot.MEMBER)),
            partner("GET", "/v1/surveys/v2/lookup", REQUESTS).query(requiredParam("drugId", ID, Slot.DRUG)),
            // A new token each time: the fixture's stays unused.
            partner("POST", "/v1/surveys/v2/tokens", REQUESTS).body("""
                    {"memberId": "$member", "surveyId": "$survey"}"""),
            partner("GET", "/v2/public/surveys/{survey}", REQUESTS),
            partner("GET", "/v2/public/responses/{response}", REQUESTS),

            // ---- Embed API (publishable key + allow-listed Origin) ------------------------------
            // The answers are to the fixture survey's questions (Fixture.SURVEY_QUESTIONS).
            embed("GET", "/v2/embed/surveys/{survey}"),
            embed("POST", "/v2/embed/surveys/{survey}/responses").body("""
                    {"answers": {"q1": false, "q2": "yes", "q3": 182.5, "q4": "Walks daily"},
                     "contact": {"firstName": "Ann", "lastName": "Lee", "email": "ann.lee@example.com"}}""", """
                    {"answers": {"q1": true, "q2": null, "q3": 0}, "contact": null}""").names("contact.firstName", "contact.lastName"),
            embed("GET", "/v2/embed/by-token/survey").query(requiredParam("token", ID, Slot.TOKEN)),
            // The token is good for one submission: a successful one uses it up.
            embed("POST", "/v2/embed/by-token/responses").query(requiredParam("token", ID, Slot.TOKEN)).body("""
                    {"answers": {"q1": false, "q2": "no", "q3": 176, "q4": "Refill"},
                     "contact": {"firstName": "Fay", "lastName": "Fixture", "email": "fay.fixture@example.com"}}""", """
                    {"answers": {"q1": false}}""").invalidates(Fixture.Part.TOKEN).names("contact.firstName", "contact.lastName"),

            // ---- Operations API (x-ops-key) --------------------------------------------------------
            ops("POST", "/ops/v1/partners", GATEWAY).body("""
                    {"name": "Fuzz Health"}"""),
            ops("GET", "/ops/v1/partners/{partner}", GATEWAY),
            ops("POST", "/ops/v1/partners/{partner}/api-key/rotate", GATEWAY),
            ops("PUT", "/ops/v1/partners/{partner}/embed-origins", GATEWAY).body("""
                    {"origins": ["https://fuzz.example", "http://localhost:3000"]}"""),
            // People on /ops (issue #40): local accounts, sign-in and pharmacy keys, the gateway's own. A
            // refused sign-in counts as a failure of its email by contract (five in 15 minutes: 429).
            ops("POST", "/ops/v1/accounts", GATEWAY).body("""
                    {"email": "$freshEmail", "name": "Fuzz Support", "roles": ["support"], "password": "fuzz-password-12"}""", """
                    {"email": "$freshEmail", "name": "Dr Fuzz Account", "roles": ["prescriber"], "prescriberId": "$prescriber",
                     "password": "fuzz-password-12"}""").names("name"),
            ops("GET", "/ops/v1/accounts", GATEWAY),
            ops("DELETE", "/ops/v1/accounts/00000000-0000-4000-8000-000000000000", GATEWAY),
            ops("POST", "/ops/v1/sessions", GATEWAY).body("""
                    {"email": "$freshEmail", "password": "fuzz-password-12"}""").keptWhenRefused("sign_in_failures"),
            ops("DELETE", "/ops/v1/sessions/current", GATEWAY),
            // Who is signed in (issue #41): a person's question; the operator key is refused (403).
            ops("GET", "/ops/v1/sessions/current", GATEWAY),
            ops("POST", "/ops/v1/pharmacies/fuzz-pharmacy/credentials", GATEWAY),
            ops("DELETE", "/ops/v1/pharmacies/fuzz-pharmacy/credentials/00000000-0000-4000-8000-000000000000", GATEWAY),
            // The audit trail (issue #40): the gateway's entries merged with every auditing service's; a read.
            ops("GET", "/ops/v1/audit", GATEWAY).query(param("limit", NUMBER, "50"), param("actor", TEXT, "service"),
                    param("action", TEXT, "partner.create"), param("targetId", ID, Slot.OPS_PARTNER),
                    param("from", DATE, "2020-01-01T00:00:00Z"), param("to", DATE, "2099-12-31T23:59:59Z"),
                    param("after", TEXT, "MjAyNi0xMS0yOVQxMDoxNTozMC4xMjNafDBiN2U2YzFlLTJhOGYtNGQ1MS05YTU3LTNjMWYwZThkMmI0NA")),
            ops("PUT", "/ops/v1/partners/{partner}/webhook", WEBHOOK).body("""
                    {"url": "$webhookUrl"}"""),
            ops("POST", "/ops/v1/partners/{partner}/webhook/secret/rotate", WEBHOOK),
            ops("GET", "/ops/v1/partners/{partner}/webhook/deliveries", WEBHOOK).query(
                    param("limit", NUMBER, "50"), param("event", TEXT, "item.denied")),
            ops("POST", "/ops/v1/partners/{partner}/webhook/deliveries/{delivery}/redeliver", WEBHOOK).settlesDeliveries(),
            ops("PUT", "/ops/v1/partners/{partner}/drug-access", CATALOGUE).body("""
                    {"drugIds": ["$opsDrug"]}""", """
                    {"drugIds": null}"""),
            ops("PUT", "/ops/v1/partners/{partner}/fulfilment", REQUESTS).body("""
                    {"mode": "deferred"}""", """
                    {"mode": "automatic"}"""),
            ops("PUT", "/ops/v1/partners/{partner}/billing", BILLING).body("""
                    {"enabled": true, "cycle": "weekly", "weekday": 1, "ratePerMember": 12.5}""", """
                    {"enabled": false, "cycle": "monthly", "weekday": null, "ratePerMember": 0}"""),
            ops("GET", "/ops/v1/partners/{partner}/billing", BILLING),
            ops("POST", "/ops/v1/partners/{partner}/billing/rebuild", BILLING),
            ops("GET", "/ops/v1/partners/{partner}/fulfilment", REQUESTS),

            ops("GET", "/ops/v1/drugs", CATALOGUE),
            ops("PUT", "/ops/v1/drugs/{opsDrug}", CATALOGUE).body("""
                    {"name": "Fuzzitol", "description": "For testing", "defaultAdCopy": null, "classification": "non-controlled",
                     "skus": [{"label": "1 mg", "packageSize": 10, "concentration": {"value": 2.5, "activeUnit": "mg", "baseUnit": "mL"},
                               "active": true}, {"id": null, "label": "5 mg", "active": false}],
                     "pharmacy": {"id": "sandbox", "method": "email"}}"""),

            ops("POST", "/ops/v1/prescribers", REQUESTS).body("""
                    {"name": "Dr Fuzz", "email": "$freshEmail"}""").names("name"),
            ops("GET", "/ops/v1/prescribers/{prescriber}", REQUESTS),
            // Availability and slots (issue 39): the fixture's prescriber; a good body replaces its weekly hours.
            ops("PUT", "/ops/v1/prescribers/{prescriber}/availability", REQUESTS).body("""
                    {"timezone": "America/New_York", "weekly": [{"weekday": 1, "start": "09:00", "end": "12:30"},
                     {"weekday": 3, "start": "13:00", "end": "24:00"}], "slotMinutes": 30}"""),
            ops("GET", "/ops/v1/prescribers/{prescriber}/availability", REQUESTS),
            ops("GET", "/ops/v1/prescribers/{prescriber}/slots", REQUESTS).query(
                    requiredParam("from", DATE, "2099-01-01T00:00:00Z"), requiredParam("to", DATE, "2099-01-15T00:00:00Z")),

            ops("GET", "/ops/v1/review/queue", REQUESTS).query(param("limit", NUMBER, "50"), param("drugId", TEXT, Slot.DRUG),
                    param("partnerId", TEXT, Slot.OPS_PARTNER), param("prescriberId", ID, Slot.PRESCRIBER)),
            // The console's read of one request (issue #41): member, items, history; audited for people only.
            ops("GET", "/ops/v1/requests/{request}", REQUESTS),
            ops("POST", "/ops/v1/requests/{request}/claim", REQUESTS).body("""
                    {"prescriberId": "$prescriber"}"""),
            ops("POST", "/ops/v1/requests/{request}/notes", REQUESTS).body("""
                    {"prescriberId": "$prescriber", "text": "Called the patient"}"""),
            ops("POST", "/ops/v1/requests/{request}/approve", REQUESTS).body("""
                    {"prescriberId": "$prescriber", "drugId": "$drug", "prescription": %s}""".formatted(PRESCRIPTION))
                    .invalidates(Fixture.Part.REQUEST),
            ops("POST", "/ops/v1/requests/{request}/deny", REQUESTS).body("""
                    {"prescriberId": "$prescriber", "reason": "Contraindicated"}""").invalidates(Fixture.Part.REQUEST),
            ops("POST", "/ops/v1/requests/{request}/complete-without-rx", REQUESTS).body("""
                    {"prescriberId": "$prescriber", "reason": "Not a candidate"}""").invalidates(Fixture.Part.REQUEST),
            ops("POST", "/ops/v1/requests/{request}/request-consultation", REQUESTS).body("""
                    {"prescriberId": "$prescriber"}""").invalidates(Fixture.Part.REQUEST),
            ops("POST", "/ops/v1/requests/{request}/withdraw", REQUESTS).body("""
                    {"reason": "Member cancelled"}""").invalidates(Fixture.Part.REQUEST),
            ops("POST", "/ops/v1/requests/{request}/items/{item}/approve", REQUESTS).body("""
                    {"prescriberId": "$prescriber", "prescription": %s}""".formatted(PRESCRIPTION))
                    .invalidates(Fixture.Part.REQUEST),
            ops("POST", "/ops/v1/requests/{request}/items/{item}/deny", REQUESTS).body("""
                    {"prescriberId": "$prescriber", "reason": "Contraindicated"}""").invalidates(Fixture.Part.REQUEST),
            ops("POST", "/ops/v1/requests/{request}/items/{item}/request-consultation", REQUESTS).body("""
                    {"prescriberId": "$prescriber"}""").invalidates(Fixture.Part.REQUEST),
            ops("POST", "/ops/v1/requests/{request}/items/{item}/dosage", REQUESTS).body("""
                    {"prescriberId": "$prescriber", "skuId": "$sku2"}""").invalidates(Fixture.Part.REQUEST),
            ops("POST", "/ops/v1/requests/{request}/items/{item}/send-to-pharmacy", REQUESTS).invalidates(Fixture.Part.REQUEST),

            // The fixture has no booking link or appointment: each call is refused (404) however well formed.
            ops("POST", "/ops/v1/bookings/{token}/appointment", REQUESTS).body("""
                    {"startTime": "2099-01-01T10:00:00Z", "durationMinutes": 30, "timezone": "America/New_York"}"""),
            ops("GET", "/ops/v1/bookings/{token}", REQUESTS),
            ops("GET", "/ops/v1/bookings/{token}/slots", REQUESTS).query(
                    requiredParam("from", DATE, "2099-01-01T00:00:00Z"), requiredParam("to", DATE, "2099-01-15T00:00:00Z")),
            ops("POST", "/ops/v1/bookings/{token}/appointment/reschedule", REQUESTS).body("""
                    {"startTime": "2099-01-02T10:00:00Z", "timezone": "Europe/Paris"}""", """
                    {"startTime": "2099-01-02T10:00:00+01:00"}"""),
            ops("POST", "/ops/v1/bookings/{token}/appointment/cancel", REQUESTS).body("""
                    {"reason": "Busy"}""", "{}"),
            ops("POST", "/ops/v1/appointments/{appointment}/reschedule", REQUESTS).body("""
                    {"startTime": "2099-01-02T10:00:00Z", "durationMinutes": 45, "timezone": "Europe/Paris"}""", """
                    {"startTime": "2099-01-02T10:00:00+01:00"}"""),
            ops("POST", "/ops/v1/appointments/{appointment}/cancel", REQUESTS).body("""
                    {"cancelledBy": "patient", "reason": "Busy"}""", """
                    {"cancelledBy": "prescriber"}"""),
            ops("POST", "/ops/v1/appointments/{appointment}/outcome", REQUESTS).body("""
                    {"outcome": "no_show"}"""),
            ops("GET", "/ops/v1/appointments/{appointment}", REQUESTS),
            // No order of the fixture's was sent: an update is refused (404 Order not found) however well formed.
            ops("POST", "/ops/v1/pharmacy/updates", REQUESTS).body("""
                    {"pharmacyOrderId": "ord_123", "status": "shipped", "trackingNumber": "1Z999", "shipCarrier": "UPS",
                     "shipped": true}""", """
                    {"pharmacyOrderId": "ord_123", "status": "Delivered", "trackingNumber": null, "shipCarrier": null,
                     "shipped": null}"""),
            // The operator's own survey (on the operator's drug): a replaced definition changes nothing partners submit to.
            ops("PUT", "/ops/v1/surveys/{opsSurvey}", REQUESTS).body("""
                    {"title": "Intake", "drugIds": ["$opsDrug"], "questions": %s}""".formatted(Fixture.SURVEY_QUESTIONS), """
                    {"title": "Short intake", "drugIds": ["$opsDrug"], "questions": [{"id": "q1", "text": "Pregnant?",
                     "type": "boolean", "required": true, "disqualifyWhen": {"equals": true}}]}"""),
            ops("GET", "/ops/v1/surveys/{opsSurvey}", REQUESTS),
            // The prescriber's file, with the patient's limits.
            ops("POST", "/ops/v1/conversations/{conversation}/prescriber-attachments", MESSAGING).upload(),
            ops("POST", "/ops/v1/conversations/{conversation}/prescriber-messages", MESSAGING).body("""
                    {"text": "Hello"}""", """
                    {"text": "Hello", "html": "<p>Hello</p>", "subject": "Hi"}"""),
            ops("POST", "/ops/v1/conversations/{conversation}/messages/{message}/handoff", MESSAGING).body("""
                    {"category": "orders", "note": "x"}"""),
            ops("POST", "/ops/v1/conversations/{conversation}/prescriber-read", MESSAGING),
            ops("GET", "/ops/v1/conversations/{conversation}/messages", MESSAGING).query(
                    param("limit", NUMBER, "50"), param("cursor", TEXT, Slot.CURSOR)),
            // The console's list of threads (issue #41): unread first; a read, audited for people only.
            ops("GET", "/ops/v1/conversations", MESSAGING).query(param("limit", NUMBER, "50"), param("unread", ENUM, "true")));

    private Endpoints() {
    }

    /** The endpoint of the table at {@code path} (as {@link Endpoint#path()} holds it) for {@code method}. */
    static Optional<Endpoint> at(List<Object> path, String method) {
        return ALL.stream().filter(endpoint -> endpoint.method().equals(method) && endpoint.path().equals(path)).findFirst();
    }

    private static Endpoint partner(String method, String path, PlatformService owner) {
        return Endpoint.of(method, path, PARTNER, owner);
    }

    private static Endpoint embed(String method, String path) {
        return Endpoint.of(method, path, EMBED, REQUESTS);
    }

    private static Endpoint ops(String method, String path, PlatformService owner) {
        return Endpoint.of(method, path, OPS, owner);
    }
}
