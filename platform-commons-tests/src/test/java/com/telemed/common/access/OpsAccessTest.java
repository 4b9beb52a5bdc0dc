package com.telemed.common.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.access.OpsAccess.Verdict;
import com.telemed.common.access.Principal.Role;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The one table of who may call which /ops operation (people-and-pages.md, "Principals and roles"). */
class OpsAccessTest {

    private static final Optional<Principal> OPERATOR_KEY = Optional.of(Principal.operatorKey());
    private static final Optional<Principal> ADMIN = person(Role.ADMIN);
    private static final Optional<Principal> SUPPORT = person(Role.SUPPORT);
    private static final Optional<Principal> PRESCRIBER = Optional.of(Principal.person("acc_p", Set.of(Role.PRESCRIBER), Optional.of("pr_1")));
    private static final Optional<Principal> NO_ROLES = person();
    private static final Optional<Principal> PHARMACY = Optional.of(Principal.pharmacy("ph_1"));
    private static final Optional<Principal> WEB = Optional.of(Principal.service("web-service"));
    private static final Optional<Principal> MEMBERS = Optional.of(Principal.service("members-service"));

    private static Optional<Principal> person(Role... roles) {
        return Optional.of(Principal.person("acc_1", roles.length == 0 ? Set.of() : EnumSet.of(roles[0], roles), Optional.empty()));
    }

    private static Verdict sandbox(String operation, Optional<Principal> principal) {
        String[] parts = operation.split(" ", 2);
        return OpsAccess.decide(parts[0], parts[1], principal, false);
    }

    private static Verdict production(String operation, Optional<Principal> principal) {
        String[] parts = operation.split(" ", 2);
        return OpsAccess.decide(parts[0], parts[1], principal, true);
    }

    @Test
    void theVerdictsAreTheContractsAnswers() {
        assertEquals(401, Verdict.NO_PRINCIPAL.status());
        assertEquals("Invalid token", Verdict.NO_PRINCIPAL.error());
        assertEquals(403, Verdict.FORBIDDEN.status());
        assertEquals("Forbidden", Verdict.FORBIDDEN.error());
        assertEquals(403, Verdict.IN_PERSON.status());
        assertEquals("A prescriber must act in person", Verdict.IN_PERSON.error());
    }

    @Test
    void theOperatorKeyMayCallEverythingInASandboxButNotActForAPrescriberInProduction() {
        for (String operation : OpsAccess.operations()) {
            assertEquals(Verdict.ALLOWED, sandbox(operation, OPERATOR_KEY), operation);
        }
        for (String inPerson : List.of("POST /ops/v1/requests/{id}/claim", "POST /ops/v1/requests/{id}/items/{itemId}/approve",
                "POST /ops/v1/requests/{id}/approve", "POST /ops/v1/requests/{id}/deny", "POST /ops/v1/requests/{id}/notes",
                "POST /ops/v1/requests/{id}/request-consultation", "POST /ops/v1/appointments/{id}/outcome",
                "PUT /ops/v1/prescribers/{id}/availability", "GET /ops/v1/conversations/{id}/messages", "GET /ops/v1/conversations",
                "POST /ops/v1/conversations/{id}/prescriber-messages")) {
            assertEquals(Verdict.IN_PERSON, production(inPerson, OPERATOR_KEY), inPerson);
            // A person with the role is the way, in production as anywhere.
            assertEquals(Verdict.ALLOWED, production(inPerson, PRESCRIBER), inPerson);
        }
        for (String automation : List.of("PUT /ops/v1/drugs/{drugId}", "POST /ops/v1/partners", "POST /ops/v1/prescribers",
                "POST /ops/v1/pharmacy/updates", "GET /ops/v1/bookings/{token}", "POST /ops/v1/requests/{id}/withdraw")) {
            assertEquals(Verdict.ALLOWED, production(automation, OPERATOR_KEY), automation);
        }
    }

    @Test
    void aPersonMayCallWhatOneOfTheirRolesMay() {
        String approve = "POST /ops/v1/requests/{id}/items/{itemId}/approve";
        assertEquals(Verdict.ALLOWED, sandbox(approve, PRESCRIBER));
        // Support never signs; an administrator is no prescriber.
        assertEquals(Verdict.FORBIDDEN, sandbox(approve, SUPPORT));
        assertEquals(Verdict.FORBIDDEN, sandbox(approve, ADMIN));
        assertEquals(Verdict.FORBIDDEN, sandbox(approve, NO_ROLES));
        assertEquals(Verdict.ALLOWED, sandbox(approve, Optional.of(Principal.person("acc_2", EnumSet.of(Role.SUPPORT, Role.PRESCRIBER),
                Optional.of("pr_2")))));
        // Support reads conversations and hands off, never replies.
        assertEquals(Verdict.ALLOWED, sandbox("GET /ops/v1/conversations/{id}/messages", SUPPORT));
        assertEquals(Verdict.ALLOWED, sandbox("POST /ops/v1/conversations/{id}/messages/{messageId}/handoff", SUPPORT));
        assertEquals(Verdict.FORBIDDEN, sandbox("POST /ops/v1/conversations/{id}/prescriber-messages", SUPPORT));
        // The console's list of threads (issue #41): every person's role lists; an administrator too, who reads no thread.
        for (Optional<Principal> person : List.of(PRESCRIBER, SUPPORT, ADMIN)) {
            assertEquals(Verdict.ALLOWED, sandbox("GET /ops/v1/conversations", person));
        }
        assertEquals(Verdict.FORBIDDEN, sandbox("GET /ops/v1/conversations/{id}/messages", ADMIN));
        assertEquals(Verdict.FORBIDDEN, sandbox("GET /ops/v1/conversations", PHARMACY));
        assertEquals(Verdict.ALLOWED, sandbox("POST /ops/v1/partners/{partnerId}/webhook/deliveries/{deliveryId}/redeliver", SUPPORT));
        assertEquals(Verdict.ALLOWED, sandbox("GET /ops/v1/review/queue", SUPPORT));
        // The console's read of one request: every person role.
        for (Optional<Principal> person : List.of(ADMIN, SUPPORT, PRESCRIBER)) {
            assertEquals(Verdict.ALLOWED, production("GET /ops/v1/requests/{id}", person));
        }
        assertEquals(Verdict.FORBIDDEN, sandbox("GET /ops/v1/requests/{id}", NO_ROLES));
        // The console's appointments (issue #41): a prescriber's own, an administrator's for one; not support's.
        for (Optional<Principal> person : List.of(PRESCRIBER, ADMIN)) {
            assertEquals(Verdict.ALLOWED, production("GET /ops/v1/appointments", person));
        }
        assertEquals(Verdict.FORBIDDEN, sandbox("GET /ops/v1/appointments", SUPPORT));
        assertEquals(Verdict.ALLOWED, sandbox("GET /ops/v1/appointments", OPERATOR_KEY));
        assertEquals(Verdict.IN_PERSON, production("GET /ops/v1/appointments", OPERATOR_KEY));
        // Catalogue, keys and settings are the administrator's.
        for (String adminOnly : List.of("PUT /ops/v1/drugs/{drugId}", "POST /ops/v1/partners/{id}/api-key/rotate",
                "PUT /ops/v1/partners/{partnerId}/billing", "POST /ops/v1/accounts", "DELETE /ops/v1/accounts/{accountId}",
                "POST /ops/v1/pharmacies/{pharmacyId}/credentials", "PUT /ops/v1/surveys/{surveyId}")) {
            assertEquals(Verdict.ALLOWED, sandbox(adminOnly, ADMIN), adminOnly);
            assertEquals(Verdict.FORBIDDEN, sandbox(adminOnly, SUPPORT), adminOnly);
            assertEquals(Verdict.FORBIDDEN, sandbox(adminOnly, PRESCRIBER), adminOnly);
        }
        // Any person signed in may end their own session.
        assertEquals(Verdict.ALLOWED, sandbox("DELETE /ops/v1/sessions/current", NO_ROLES));
        assertEquals(Verdict.FORBIDDEN, sandbox("DELETE /ops/v1/sessions/current", PHARMACY));
        // ...and ask who is signed in, whatever their roles (the console's first read).
        for (Optional<Principal> person : List.of(NO_ROLES, ADMIN, PRESCRIBER, SUPPORT)) {
            assertEquals(Verdict.ALLOWED, sandbox("GET /ops/v1/sessions/current", person), person.orElseThrow().header());
            assertEquals(Verdict.ALLOWED, production("GET /ops/v1/sessions/current", person), person.orElseThrow().header());
        }
        assertEquals(Verdict.FORBIDDEN, sandbox("GET /ops/v1/sessions/current", PHARMACY));
    }

    @Test
    void aPharmacyMaySendShippingUpdatesAndNothingElse() {
        assertEquals(Verdict.ALLOWED, production("POST /ops/v1/pharmacy/updates", PHARMACY));
        for (String operation : OpsAccess.operations()) {
            if (!operation.equals("POST /ops/v1/pharmacy/updates") && !operation.equals("POST /ops/v1/sessions")) {
                assertEquals(Verdict.FORBIDDEN, sandbox(operation, PHARMACY), operation);
            }
        }
        // A person's "pharmacy" role names no pharmacy, so it cannot be scoped to one's own orders.
        assertEquals(Verdict.FORBIDDEN, sandbox("POST /ops/v1/pharmacy/updates", person(Role.PHARMACY)));
        assertEquals(Verdict.FORBIDDEN, sandbox("POST /ops/v1/pharmacy/updates", ADMIN));
    }

    @Test
    void aServiceMayCallOnlyTheBookingLinksOperationsAndOnlyTheBookingPage() {
        for (String operation : OpsAccess.operations()) {
            boolean bookingLink = operation.contains(" /ops/v1/bookings/");
            assertEquals(bookingLink ? Verdict.ALLOWED : operation.equals("POST /ops/v1/sessions") ? Verdict.ALLOWED : Verdict.FORBIDDEN,
                    production(operation, WEB), operation);
            assertEquals(operation.equals("POST /ops/v1/sessions") ? Verdict.ALLOWED : Verdict.FORBIDDEN, production(operation, MEMBERS), operation);
        }
    }

    @Test
    void requestsServiceMayPostOnlyTheSandboxPrescribersMessage() {
        Optional<Principal> requests = Optional.of(Principal.service("requests-service"));
        for (String operation : OpsAccess.operations()) {
            boolean allowed = operation.equals("POST /ops/v1/conversations/{id}/prescriber-messages")
                    || operation.equals("POST /ops/v1/sessions");
            assertEquals(allowed ? Verdict.ALLOWED : Verdict.FORBIDDEN, sandbox(operation, requests), operation);
        }
    }

    @Test
    void noPrincipalIsInvalidTokenButForTheSignInItself() {
        for (String operation : OpsAccess.operations()) {
            assertEquals(operation.equals("POST /ops/v1/sessions") ? Verdict.ALLOWED : Verdict.NO_PRINCIPAL,
                    sandbox(operation, Optional.empty()), operation);
        }
    }

    @Test
    void anOperationTheTableDoesNotKnowIsClosedToEveryone() {
        for (Optional<Principal> principal : List.of(OPERATOR_KEY, ADMIN, SUPPORT, PRESCRIBER, PHARMACY, WEB)) {
            assertEquals(Verdict.FORBIDDEN, OpsAccess.decide("DELETE", "/ops/v1/drugs/{drugId}", principal, false));
            assertEquals(Verdict.FORBIDDEN, OpsAccess.decide("DELETE", "/ops/v1/requests/{id}", principal, false));
            // The template as the resource declares it: another placeholder name is another operation.
            assertEquals(Verdict.FORBIDDEN, OpsAccess.decide("POST", "/ops/v1/requests/{requestId}/claim", principal, false));
        }
        assertEquals(Verdict.NO_PRINCIPAL, OpsAccess.decide("DELETE", "/ops/v1/requests/{id}", Optional.empty(), false));
        assertEquals(Optional.empty(), OpsAccess.rule("GET", "/ops/v1/nothing"));
    }

    @Test
    void theAuditTrailIsAnAdministratorsRead() {
        assertEquals(Verdict.ALLOWED, OpsAccess.decide("GET", "/ops/v1/audit", ADMIN, true));
        assertEquals(Verdict.ALLOWED, OpsAccess.decide("GET", "/ops/v1/audit", OPERATOR_KEY, true));
        for (Optional<Principal> refused : List.of(SUPPORT, PRESCRIBER, PHARMACY, WEB)) {
            assertEquals(Verdict.FORBIDDEN, OpsAccess.decide("GET", "/ops/v1/audit", refused, false));
        }
        assertEquals(Verdict.NO_PRINCIPAL, OpsAccess.decide("GET", "/ops/v1/audit", Optional.empty(), false));
    }

    @Test
    void headIsAsGetAndMethodsAreReadInAnyCase() {
        assertEquals(Verdict.ALLOWED, OpsAccess.decide("HEAD", "/ops/v1/drugs", ADMIN, true));
        assertEquals(Verdict.ALLOWED, OpsAccess.decide("get", "/ops/v1/drugs", ADMIN, true));
        assertEquals(Verdict.FORBIDDEN, OpsAccess.decide("HEAD", "/ops/v1/drugs", SUPPORT, true));
    }

    @Test
    void everyRowIsAnOpsOperationWithAMethodAndTheGatewaysRowsAreThere() {
        for (String operation : OpsAccess.operations()) {
            assertTrue(operation.matches("(GET|POST|PUT|DELETE) /ops/v1(/[a-z-]+|/\\{[A-Za-z]+})+"), operation);
        }
        assertTrue(OpsAccess.operations().containsAll(List.of("POST /ops/v1/partners", "GET /ops/v1/partners/{id}",
                "POST /ops/v1/accounts", "GET /ops/v1/accounts", "DELETE /ops/v1/accounts/{accountId}", "POST /ops/v1/sessions",
                "DELETE /ops/v1/sessions/current", "GET /ops/v1/sessions/current", "POST /ops/v1/pharmacies/{pharmacyId}/credentials",
                "DELETE /ops/v1/pharmacies/{pharmacyId}/credentials/{credentialId}")));
    }
}
