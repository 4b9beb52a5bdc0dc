package com.telemed.common.audit;

import com.telemed.common.access.Caller;
import com.telemed.common.access.Principal;
import io.quarkus.arc.Arc;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Writes audit entries (people-and-pages.md, "Audit"): one row of {@code audit_entries} per {@code /ops}
 * call that changes something ({@link #record}) and per read of a member, a request or a conversation by
 * a person ({@link #recordRead}), in the caller's own transaction ({@code MANDATORY}: there must be one),
 * so an entry exists exactly when its change was committed, and an audit write that fails rolls the
 * change back or fails the read. The actor is the call's principal ({@link Caller}: the
 * {@code X-Principal} the service proof covers, or the gateway's own authentication). Outside an HTTP
 * call (a job, a consumer, a test calling a bean), or on a call without a principal, the actor is the
 * service itself ({@code service:<quarkus.application.name>}): no {@code /ops} call gets here without
 * one, since {@code OpsAccessFilter} refuses it first.
 *
 * <p>Ids only: the action and target type are names from code ({@code request.approve}, {@code request});
 * the target, partner and actor are ids. Never a name, an email, a text or a token.
 *
 * <p>The table is each auditing service's own migration (docs/architecture.md, "Audit"); commons has
 * no entity for it, so services without audit never see it in Hibernate's validation.
 */
@ApplicationScoped
@IfBuildProperty(name = "platform.audit.enabled", stringValue = "true")
public class AuditTrail {

    /** {@code <targetType>.<verb>}, lowercase snake case. */
    static final Pattern ACTION = Pattern.compile("[a-z][a-z_]*\\.[a-z][a-z_]*");
    static final Pattern TARGET_TYPE = Pattern.compile("[a-z][a-z_]*");
    /** The longest id kept: the services' own path ids are 64 characters at most. */
    static final int LONGEST_ID = 256;
    private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

    // Native: commons has no entity for the table (see above). Text parameters always ('' for none):
    // a null one would reach the driver without a type.
    private static final String INSERT = "insert into audit_entries"
            + " (id, at, actor_type, actor_id, action, target_type, target_id, partner_id)"
            + " values (cast(?1 as uuid), ?2, ?3, ?4, ?5, ?6, nullif(?7, ''), nullif(?8, ''))";

    private final EntityManager entityManager;
    private final Caller caller;
    private final Clock clock;
    private final Principal self;

    public AuditTrail(EntityManager entityManager, Caller caller, Clock clock,
                      @ConfigProperty(name = "quarkus.application.name") String application) {
        this.entityManager = entityManager;
        this.caller = caller;
        this.clock = clock;
        this.self = Principal.service(application);
    }

    /**
     * An entry for a change the current call's principal makes, in the current transaction.
     *
     * @param targetId  the changed thing's id; null when none
     * @param partnerId the partner the thing belongs to; null when none
     * @throws jakarta.transaction.TransactionalException when no transaction is active
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void record(String action, String targetType, String targetId, String partnerId) {
        write(principal(), action, targetType, targetId, partnerId);
    }

    /**
     * An entry for a read, written only when the principal is a person ("every read of a member, a
     * request or a conversation by a person"); the operator key, a pharmacy or a service reads without
     * one. In the read's transaction: a failed write fails the read.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void recordRead(String action, String targetType, String targetId, String partnerId) {
        Principal principal = principal();
        if (principal.type() == Principal.Type.PERSON) {
            write(principal, action, targetType, targetId, partnerId);
        }
    }

    /**
     * An entry for {@code actor}, who is not (yet) the call's principal: a sign-in, whose call carries no
     * credential until it succeeds ({@code session.create}, the person who signed in).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void recordAs(Principal actor, String action, String targetType, String targetId, String partnerId) {
        write(Objects.requireNonNull(actor, "actor"), action, targetType, targetId, partnerId);
    }

    private Principal principal() {
        return callPrincipal().orElse(self);
    }

    private Optional<Principal> callPrincipal() {
        if (!Arc.container().requestContext().isActive()) {
            return Optional.empty();
        }
        try {
            return caller.principal();
        } catch (IllegalStateException | NullPointerException noHttpCall) {
            // A request context without an HTTP request (a test method, a consumer's own context):
            // Quarkus REST's HttpHeaders has no current request to read.
            return Optional.empty();
        }
    }

    private void write(Principal actor, String action, String targetType, String targetId, String partnerId) {
        check(ACTION, action, "action");
        check(TARGET_TYPE, targetType, "targetType");
        targetId = id(targetId);
        partnerId = id(partnerId);
        entityManager.createNativeQuery(INSERT)
                .setParameter(1, UUID.randomUUID().toString())
                .setParameter(2, OffsetDateTime.ofInstant(clock.instant().truncatedTo(ChronoUnit.MILLIS), ZoneOffset.UTC))
                .setParameter(3, actor.type().wire())
                .setParameter(4, actor.id())
                .setParameter(5, action)
                .setParameter(6, targetType)
                .setParameter(7, targetId == null ? "" : targetId)
                .setParameter(8, partnerId == null ? "" : partnerId)
                .executeUpdate();
    }

    /**
     * An id as the service accepted it (a path segment may hold any text: a partner id of settings is
     * one): kept as it is, but for control characters (U+FFFD) and past {@link #LONGEST_ID}, never
     * refused, so a call the service answers is never failed by its audit entry.
     */
    static String id(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        String kept = CONTROL.matcher(value).replaceAll("\uFFFD");
        return kept.length() <= LONGEST_ID ? kept : kept.substring(0, LONGEST_ID);
    }

    private static void check(Pattern pattern, String value, String name) {
        if (value == null || !pattern.matcher(value).matches()) {
            // A programming error; the value itself is not logged (it should have been an id).
            throw new IllegalArgumentException("audit " + name + " is not of its form");
        }
    }
}
