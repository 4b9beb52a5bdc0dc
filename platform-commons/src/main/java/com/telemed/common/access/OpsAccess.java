package com.telemed.common.access;

import com.telemed.common.access.Principal.Role;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Who may call which {@code /ops} operation: one table for every service and the gateway
 * (people-and-pages.md, "Principals and roles", "A prescriber acts in person"; docs/security.md,
 * "People on /ops"), keyed by HTTP method and route template exactly as the resource declares it
 * ({@code POST /ops/v1/requests/{id}/claim}). {@link OpsAccessFilter} enforces it in every service;
 * each service's {@code ApiDescriptionTest} fails when one of its {@code /ops} operations has no row.
 *
 * <p>A row names the roles a person needs (one of them is enough), whether the operator key may call
 * it (in {@code local} and {@code sandbox} it may call every operation; in {@code production} not a
 * prescriber's action nor a read of a conversation's messages: {@link Verdict#IN_PERSON}), whether a
 * pharmacy credential may (only {@code POST /ops/v1/pharmacy/updates}) and which services may
 * ({@code service:web-service} on the booking link's operations, which the booking page calls; no
 * other). "As themselves" (a prescriber's own {@code prescriberId}, a pharmacy's own orders) is the
 * resource's part: only it knows the request's prescriber or the order's pharmacy.
 *
 * <p>Anything not in the table is refused ({@link Verdict#FORBIDDEN}): a new endpoint is closed until
 * it has its row. Pure: no CDI, no I/O.
 */
public final class OpsAccess {

    /** What an {@code /ops} call gets: through, or the contract's refusal. */
    public enum Verdict {
        ALLOWED(200, null),
        /** No principal (or an unreadable one) on an operation that needs one. */
        NO_PRINCIPAL(401, "Invalid token"),
        FORBIDDEN(403, "Forbidden"),
        /** The operator key on a prescriber's action or a conversation read, in production. */
        IN_PERSON(403, "A prescriber must act in person");

        private final int status;
        private final String error;

        Verdict(int status, String error) {
            this.status = status;
            this.error = error;
        }

        public int status() {
            return status;
        }

        /** The {@code error} of the answer's body; null when allowed. */
        public String error() {
            return error;
        }
    }

    /**
     * One operation's row.
     *
     * @param roles        a person holding any of them may call it
     * @param anyPerson    any signed-in person may, whatever their roles (ending one's own session)
     * @param inPerson     a prescriber's action or a read of a conversation's messages: the operator key
     *                     only outside production
     * @param pharmacy     a pharmacy credential may
     * @param services     the services ({@code service:<module>}) that may
     * @param open         no principal needed at all (the sign-in itself)
     */
    public record Rule(Set<Role> roles, boolean anyPerson, boolean inPerson, boolean pharmacy, Set<String> services, boolean open) {

        public Rule {
            roles = roles.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(roles));
            services = Set.copyOf(services);
        }

        /** Whether {@code principal} may call the operation; {@code production} is the deployment's environment. */
        public Verdict decide(Optional<Principal> principal, boolean production) {
            if (open) {
                return Verdict.ALLOWED;
            }
            if (principal.isEmpty()) {
                return Verdict.NO_PRINCIPAL;
            }
            Principal caller = principal.get();
            return switch (caller.type()) {
                case OPERATOR_KEY -> inPerson && production ? Verdict.IN_PERSON : Verdict.ALLOWED;
                case PERSON -> anyPerson || caller.roles().stream().anyMatch(roles::contains) ? Verdict.ALLOWED : Verdict.FORBIDDEN;
                case PHARMACY -> pharmacy ? Verdict.ALLOWED : Verdict.FORBIDDEN;
                case SERVICE -> services.contains(caller.id()) ? Verdict.ALLOWED : Verdict.FORBIDDEN;
            };
        }
    }

    /** The module whose booking page calls the booking link's operations. */
    public static final String BOOKING_PAGE = "web-service";

    /** The module whose sandbox prescriber posts a prescriber's message (sandbox simulation). */
    public static final String SANDBOX_PRESCRIBER = "requests-service";

    private static final Map<String, Rule> TABLE = new LinkedHashMap<>();

    static {
        // --- The gateway: partners and keys, accounts, sessions, pharmacy credentials.
        admin("POST", "/ops/v1/partners");
        admin("GET", "/ops/v1/partners/{id}");
        admin("POST", "/ops/v1/partners/{id}/api-key/rotate");
        admin("PUT", "/ops/v1/partners/{id}/embed-origins");
        admin("POST", "/ops/v1/accounts");
        admin("GET", "/ops/v1/accounts");
        admin("DELETE", "/ops/v1/accounts/{accountId}");
        row("POST", "/ops/v1/sessions", new Rule(Set.of(), false, false, false, Set.of(), true));
        row("DELETE", "/ops/v1/sessions/current", new Rule(Set.of(), true, false, false, Set.of(), false));
        // Who is signed in (the console, issue #41): any person; the operator key gets its own 403 there.
        row("GET", "/ops/v1/sessions/current", new Rule(Set.of(), true, false, false, Set.of(), false));
        admin("POST", "/ops/v1/pharmacies/{pharmacyId}/credentials");
        admin("DELETE", "/ops/v1/pharmacies/{pharmacyId}/credentials/{credentialId}");
        // The audit trail, every service's entries merged by the gateway (people-and-pages.md, "Audit").
        admin("GET", "/ops/v1/audit");

        // --- Partner settings, each in the service that owns it.
        admin("PUT", "/ops/v1/partners/{partnerId}/webhook");
        admin("POST", "/ops/v1/partners/{partnerId}/webhook/secret/rotate");
        admin("PUT", "/ops/v1/partners/{partnerId}/drug-access");
        admin("GET", "/ops/v1/partners/{partnerId}/fulfilment");
        admin("PUT", "/ops/v1/partners/{partnerId}/fulfilment");
        admin("GET", "/ops/v1/partners/{partnerId}/billing");
        admin("PUT", "/ops/v1/partners/{partnerId}/billing");
        admin("POST", "/ops/v1/partners/{partnerId}/billing/rebuild");

        // --- Webhook deliveries (support redelivers) and the secrets' encryption.
        roles("GET", "/ops/v1/partners/{partnerId}/webhook/deliveries", Role.ADMIN, Role.SUPPORT);
        roles("POST", "/ops/v1/partners/{partnerId}/webhook/deliveries/{deliveryId}/redeliver", Role.ADMIN, Role.SUPPORT);
        admin("POST", "/ops/v1/webhook-secrets/re-encrypt");

        // --- Catalogue and surveys (admin); prescribers read the catalogue to choose a drug when approving.
        roles("GET", "/ops/v1/drugs", Role.ADMIN, Role.PRESCRIBER);
        admin("PUT", "/ops/v1/drugs/{drugId}");
        admin("GET", "/ops/v1/surveys/{surveyId}");
        admin("PUT", "/ops/v1/surveys/{surveyId}");

        // --- Prescribers (admin) and their availability (a prescriber their own, an admin anyone's).
        admin("POST", "/ops/v1/prescribers");
        admin("GET", "/ops/v1/prescribers/{id}");
        inPerson("PUT", "/ops/v1/prescribers/{id}/availability", Role.PRESCRIBER, Role.ADMIN);
        roles("GET", "/ops/v1/prescribers/{id}/availability", Role.PRESCRIBER, Role.ADMIN);
        roles("GET", "/ops/v1/prescribers/{id}/slots", Role.PRESCRIBER, Role.ADMIN, Role.SUPPORT);

        // --- Review: support reads the queue; a prescriber acts, in person.
        roles("GET", "/ops/v1/review/queue", Role.PRESCRIBER, Role.SUPPORT);
        // The console's read of one request (its member and history): every person role.
        roles("GET", "/ops/v1/requests/{id}", Role.ADMIN, Role.PRESCRIBER, Role.SUPPORT);
        inPerson("POST", "/ops/v1/requests/{id}/claim", Role.PRESCRIBER);
        inPerson("POST", "/ops/v1/requests/{id}/notes", Role.PRESCRIBER);
        inPerson("POST", "/ops/v1/requests/{id}/approve", Role.PRESCRIBER);
        inPerson("POST", "/ops/v1/requests/{id}/deny", Role.PRESCRIBER);
        inPerson("POST", "/ops/v1/requests/{id}/request-consultation", Role.PRESCRIBER);
        inPerson("POST", "/ops/v1/requests/{id}/complete-without-rx", Role.PRESCRIBER);
        inPerson("POST", "/ops/v1/requests/{id}/items/{itemId}/approve", Role.PRESCRIBER);
        inPerson("POST", "/ops/v1/requests/{id}/items/{itemId}/deny", Role.PRESCRIBER);
        inPerson("POST", "/ops/v1/requests/{id}/items/{itemId}/request-consultation", Role.PRESCRIBER);
        inPerson("POST", "/ops/v1/requests/{id}/items/{itemId}/dosage", Role.PRESCRIBER);
        // The service withdraws on the partner's behalf (history by "service"): an administrator's act.
        admin("POST", "/ops/v1/requests/{id}/withdraw");

        // --- Consultations: the prescriber's appointments; the booking link's operations, the patient's
        // (the token is their credential), called by the booking page.
        // The console's list (issue #41): a prescriber their own; an administrator (and the operator key) names one.
        // It carries patients' names, so a read in person, as the list of threads.
        inPerson("GET", "/ops/v1/appointments", Role.ADMIN, Role.PRESCRIBER);
        roles("GET", "/ops/v1/appointments/{id}", Role.PRESCRIBER, Role.SUPPORT);
        roles("POST", "/ops/v1/appointments/{id}/reschedule", Role.PRESCRIBER);
        roles("POST", "/ops/v1/appointments/{id}/cancel", Role.PRESCRIBER);
        inPerson("POST", "/ops/v1/appointments/{id}/outcome", Role.PRESCRIBER);
        bookingLink("GET", "/ops/v1/bookings/{token}");
        bookingLink("GET", "/ops/v1/bookings/{token}/slots");
        bookingLink("POST", "/ops/v1/bookings/{token}/appointment");
        bookingLink("POST", "/ops/v1/bookings/{token}/appointment/reschedule");
        bookingLink("POST", "/ops/v1/bookings/{token}/appointment/cancel");

        // --- Pharmacy integration: a pharmacy's shipping updates (its own orders: the resource's
        // part); failed transmissions read and resent by support and admins.
        row("POST", "/ops/v1/pharmacy/updates", new Rule(Set.of(), false, false, true, Set.of(), false));
        roles("GET", "/ops/v1/pharmacy/failed-transmissions", Role.ADMIN, Role.SUPPORT);
        roles("POST", "/ops/v1/requests/{id}/items/{itemId}/send-to-pharmacy", Role.ADMIN, Role.SUPPORT);

        // --- Conversations: a prescriber's (support reads and hands off); all in person.
        // The console's list of threads (issue #41): it carries members' names, so a read in person, as the messages.
        inPerson("GET", "/ops/v1/conversations", Role.ADMIN, Role.PRESCRIBER, Role.SUPPORT);
        inPerson("GET", "/ops/v1/conversations/{id}/messages", Role.PRESCRIBER, Role.SUPPORT);
        // requests-service: the sandbox prescriber's message (partner-extensions.md, "Sandbox simulation"), which
        // requests-service sends only in a sandbox deployment, through the console's own reply.
        row("POST", "/ops/v1/conversations/{id}/prescriber-messages",
                new Rule(Set.of(Role.PRESCRIBER), false, true, false, Set.of(SANDBOX_PRESCRIBER), false));
        inPerson("POST", "/ops/v1/conversations/{id}/prescriber-attachments", Role.PRESCRIBER);
        inPerson("POST", "/ops/v1/conversations/{id}/messages/{messageId}/handoff", Role.PRESCRIBER, Role.SUPPORT);
        inPerson("POST", "/ops/v1/conversations/{id}/prescriber-read", Role.PRESCRIBER);
    }

    private OpsAccess() {
    }

    /** The row of {@code method template}, if the table has one ({@code HEAD} is {@code GET}'s). */
    public static Optional<Rule> rule(String method, String template) {
        return Optional.ofNullable(TABLE.get(key(method, template)));
    }

    /**
     * What {@code principal} gets on {@code method template}: {@link Verdict#NO_PRINCIPAL} without one
     * (unless the operation is open), {@link Verdict#FORBIDDEN} for an operation the table does not know.
     */
    public static Verdict decide(String method, String template, Optional<Principal> principal, boolean production) {
        Optional<Rule> rule = rule(method, template);
        if (rule.isEmpty()) {
            return principal.isEmpty() ? Verdict.NO_PRINCIPAL : Verdict.FORBIDDEN;
        }
        return rule.get().decide(principal, production);
    }

    /** Every operation of the table, {@code "METHOD template"}, sorted. */
    public static Set<String> operations() {
        return Collections.unmodifiableSet(new TreeSet<>(TABLE.keySet()));
    }

    /**
     * The rows of {@code operations} ({@code "METHOD template"}) as a Markdown table for a service's
     * README: one line per operation (by route, then method), a column per kind of caller. Each module's
     * {@code ApiDescriptionTest} keeps its README's table equal to this for its own operations, so the
     * README says who may call what exactly as the code decides it.
     */
    public static String markdown(java.util.Collection<String> operations) {
        StringBuilder table = new StringBuilder("| Operation | admin | prescriber | support | pharmacy key | operator key |\n")
                .append("|---|---|---|---|---|---|\n");
        operations.stream()
                .sorted(java.util.Comparator.comparing((String operation) -> operation.substring(operation.indexOf(' ') + 1))
                        .thenComparing(operation -> operation.substring(0, operation.indexOf(' '))))
                .forEach(operation -> {
                    Rule rule = TABLE.get(operation);
                    table.append("| `").append(operation).append('`');
                    if (rule != null && !rule.services().isEmpty()) {
                        table.append(" (also ").append(String.join(", ", new TreeSet<>(rule.services()).stream()
                                .map(service -> "`service:" + service + "`").toList())).append(')');
                    }
                    if (rule == null) {
                        table.append(" | no | no | no | no | no (no row: refused to all) |\n");
                        return;
                    }
                    for (Role role : new Role[] {Role.ADMIN, Role.PRESCRIBER, Role.SUPPORT}) {
                        table.append(" | ").append(rule.open() ? "yes (no credential)"
                                : rule.anyPerson() || rule.roles().contains(role) ? "yes" : "no");
                    }
                    table.append(" | ").append(rule.open() || rule.pharmacy() ? "yes" : "no");
                    table.append(" | ").append(rule.open() ? "yes" : rule.inPerson() ? "sandbox and local only" : "yes");
                    table.append(" |\n");
                });
        return table.toString();
    }

    private static String key(String method, String template) {
        String verb = method == null ? "" : method.toUpperCase(java.util.Locale.ROOT);
        return (verb.equals("HEAD") ? "GET" : verb) + " " + template;
    }

    private static void row(String method, String template, Rule rule) {
        if (TABLE.put(key(method, template), rule) != null) {
            throw new IllegalStateException("two rows for " + method + " " + template);
        }
    }

    private static void admin(String method, String template) {
        roles(method, template, Role.ADMIN);
    }

    private static void roles(String method, String template, Role... roles) {
        row(method, template, new Rule(Set.of(roles), false, false, false, Set.of(), false));
    }

    private static void inPerson(String method, String template, Role... roles) {
        row(method, template, new Rule(Set.of(roles), false, true, false, Set.of(), false));
    }

    private static void bookingLink(String method, String template) {
        row(method, template, new Rule(Set.of(), false, false, false, Set.of(BOOKING_PAGE), false));
    }
}
