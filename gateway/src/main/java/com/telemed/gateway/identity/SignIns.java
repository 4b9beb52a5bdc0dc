package com.telemed.gateway.identity;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.common.json.Timestamps;
import com.telemed.gateway.partner.Keys;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import com.telemed.common.access.Principal;
import java.time.Duration;
import java.util.EnumSet;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/**
 * Sign-in and sign-out of local accounts (people-and-pages.md, "Credentials on /ops"): a session of
 * 12 hours whose token ({@code ops_} + 32 lowercase hex) is stored only as its SHA-256; a wrong email
 * and a wrong password get the same answer in the same time ({@link Passwords#verify(String, Optional)});
 * five failures for one email within 15 minutes refuse its sign-ins with {@code 429} until the oldest
 * of them is 15 minutes old.
 *
 * <p>The limit is exact across threads and replicas: an attempt takes an advisory lock on its
 * email's hash, counts the failures of the window and, below the limit, records itself as a failure
 * before the password is checked; that transaction commits before Argon2id runs (no lock or
 * connection held meanwhile), and only a sign-in that succeeds takes its row back. So N concurrent
 * wrong attempts for one email give exactly {@code 5 - earlier failures} answers {@code 401} and the
 * rest {@code 429}.
 */
@ApplicationScoped
public class SignIns {

    static final String INVALID = "Invalid email or password";
    static final String INVALID_TOKEN = "Invalid token";
    static final int MAX_FAILURES = 5;
    static final Duration WINDOW = Duration.ofMinutes(15);
    static final Duration SESSION_LIFETIME = Duration.ofHours(12);

    /** A sign-in refused by the limit: another may come after {@code retryAfterSeconds}. */
    public static final class Limited extends RuntimeException {

        private final long retryAfterSeconds;

        Limited(long retryAfterSeconds) {
            super("sign-in limit", null, false, false);
            this.retryAfterSeconds = retryAfterSeconds;
        }

        public long retryAfterSeconds() {
            return retryAfterSeconds;
        }
    }

    /** An attempt recorded as a failure ({@code failureId}) with the account it names, or refused. */
    private record Attempt(UUID failureId, Optional<UUID> accountId, Optional<String> passwordHash, long retryAfterSeconds) {
    }

    private final EntityManager entityManager;
    private final AuditTrail audit;

    public SignIns(EntityManager entityManager, AuditTrail audit) {
        this.entityManager = entityManager;
        this.audit = audit;
    }

    /** A new session, {@code 401 Invalid email or password}, or {@link Limited}. */
    public IdentityViews.SessionView signIn(IdentitySchemas.SignInInput input) {
        String emailHash = Keys.hash(input.email().toLowerCase(Locale.ROOT));
        Attempt attempt = QuarkusTransaction.requiringNew().call(() -> begin(emailHash, input.email()));
        if (attempt.retryAfterSeconds() > 0) {
            throw new Limited(attempt.retryAfterSeconds());
        }
        if (!Passwords.verify(input.password(), attempt.passwordHash())) {
            throw new ApiException(401, INVALID);
        }
        return QuarkusTransaction.requiringNew().call(() -> open(attempt));
    }

    private Attempt begin(String emailHash, String email) {
        // Native: JPQL cannot take an advisory lock. It serialises the attempts on one email (on every
        // replica) until this transaction ends; the two-int key space is this feature's own.
        entityManager.createNativeQuery(
                        "SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtext('gateway.sign-in'), hashtext(:emailHash))) locked")
                .setParameter("emailHash", emailHash)
                .getSingleResult();
        Instant now = Timestamps.now();
        Instant since = now.minus(WINDOW);
        SignInFailure.delete("emailHash = ?1 and failedAt <= ?2", emailHash, since);
        List<SignInFailure> recent = SignInFailure.<SignInFailure>find("emailHash = ?1 order by failedAt desc", emailHash)
                .page(0, MAX_FAILURES).list();
        if (recent.size() >= MAX_FAILURES) {
            Instant free = recent.get(MAX_FAILURES - 1).failedAt.plus(WINDOW);
            long seconds = Math.max(1, (Duration.between(now, free).toMillis() + 999) / 1000);
            return new Attempt(null, Optional.empty(), Optional.empty(), seconds);
        }
        SignInFailure failure = new SignInFailure();
        failure.id = UUID.randomUUID();
        failure.emailHash = emailHash;
        failure.failedAt = now;
        failure.persist();
        Optional<Account> account = Account.findLiveByEmail(email);
        return new Attempt(failure.id, account.map(found -> found.id), account.map(found -> found.passwordHash), 0);
    }

    private IdentityViews.SessionView open(Attempt attempt) {
        SignInFailure.deleteById(attempt.failureId());
        Instant now = Timestamps.now();
        String token = Keys.generate(BearerTokens.SESSION_PREFIX);
        AccountSession session = new AccountSession();
        session.tokenHash = Keys.hash(token);
        session.accountId = attempt.accountId().orElseThrow();
        session.createdAt = now;
        session.expiresAt = now.plus(SESSION_LIFETIME);
        session.persist();
        // Audited as the person who signed in (the call itself carries no credential); a failure is
        // counted in sign_in_failures instead. A session is named by its account (its token is secret).
        Account account = Account.<Account>findById(session.accountId);
        audit.recordAs(principal(account), "session.create", "session", account.id.toString(), null);
        return new IdentityViews.SessionView(token, session.expiresAt);
    }

    /** Ends the session of this token ({@code DELETE /ops/v1/sessions/current}); refused on the next call. */
    @Transactional
    public void end(String token) {
        AccountSession session = AccountSession.findById(Keys.hash(token));
        AccountSession.update("endedAt = ?1 where tokenHash = ?2 and endedAt is null", Timestamps.now(), Keys.hash(token));
        audit.record("session.end", "session", session == null ? null : session.accountId.toString(), null);
    }

    /**
     * Who is signed in ({@code GET /ops/v1/sessions/current}): the account of {@code person} (a person
     * principal, the edge's), with the roles the principal acts with, and when its credential ends: the
     * session's expiry for a session token ({@code sessionToken}), else {@code tokenExpiresAt} (an OpenID
     * Connect token's {@code exp}). {@code 401 Invalid token} when the account or the session ended
     * between the edge's check and this read.
     */
    @Transactional
    public IdentityViews.CurrentSessionView current(Principal person, Optional<String> sessionToken, Optional<Instant> tokenExpiresAt) {
        Optional<Account> account = Ids.uuid(person.id()).flatMap(Account::findLive);
        if (account.isEmpty()) {
            throw new ApiException(401, INVALID_TOKEN);
        }
        Instant expiresAt = tokenExpiresAt.orElse(null);
        if (sessionToken.isPresent()) {
            AccountSession session = AccountSession.findById(Keys.hash(sessionToken.get()));
            if (session == null || session.endedAt != null || !session.accountId.equals(account.get().id)) {
                throw new ApiException(401, INVALID_TOKEN);
            }
            expiresAt = session.expiresAt;
        }
        return new IdentityViews.CurrentSessionView(IdentityViews.AccountView.of(account.get(), person.roles()), expiresAt);
    }

    /** The person an account acts as, as the edge makes it from a session. */
    static Principal principal(Account account) {
        EnumSet<Principal.Role> roles = EnumSet.noneOf(Principal.Role.class);
        account.roles.forEach(role -> Principal.Role.of(role).ifPresent(roles::add));
        return Principal.person(account.id.toString(), roles,
                Optional.ofNullable(account.prescriberId).map(UUID::toString));
    }
}
