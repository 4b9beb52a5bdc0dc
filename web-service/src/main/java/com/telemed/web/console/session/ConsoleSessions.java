package com.telemed.web.console.session;

import com.telemed.web.ops.OpsApi;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The console's sessions (interfaces.md C): a new one after a sign-in, the one a cookie holds while it is
 * within its limits ({@code web.console.idle-timeout}, {@code web.console.max-age}), and when it is to be
 * stored again with a new {@code lastSeenAt}: at most once a minute, so a busy page does not re-issue its
 * cookie on every answer.
 */
@ApplicationScoped
public class ConsoleSessions {

    static final Duration REFRESH_AFTER = Duration.ofMinutes(1);
    private static final HexFormat HEX = HexFormat.of();

    private final Clock clock;
    private final SessionSeal seal;
    private final SecureRandom random = new SecureRandom();

    public ConsoleSessions(ConsoleConfig config, Clock clock) {
        this.clock = clock;
        this.seal = new SessionSeal(config.keys(), config.idleTimeout(), config.maxAge(), clock);
    }

    /** The session of a sign-in: the gateway's token and who it is, a fresh form token. */
    public ConsoleSession start(String token, OpsApi.Account account) {
        return start(token, account, null);
    }

    /**
     * The session of a sign-in whose token ends at {@code expiresAt} (an OpenID Connect access token's
     * {@code exp}, as the gateway's {@code GET /ops/v1/sessions/current} gives it; null: none of its own).
     */
    public ConsoleSession start(String token, OpsApi.Account account, Instant expiresAt) {
        byte[] csrf = new byte[32];
        random.nextBytes(csrf);
        Instant now = clock.instant();
        return new ConsoleSession(token, account.id(), account.name(), account.roles(), account.prescriberId(), HEX.formatHex(csrf),
                now, now, expiresAt);
    }

    public Optional<ConsoleSession> open(String cookie) {
        return seal.open(cookie);
    }

    /** The session seen now, when its {@code lastSeenAt} is a minute old or more; empty when it is recent enough. */
    public Optional<ConsoleSession> refreshed(ConsoleSession session) {
        Instant now = clock.instant();
        return session.lastSeenAt().plus(REFRESH_AFTER).isAfter(now) ? Optional.empty() : Optional.of(session.seenAt(now));
    }

    /** The {@code Set-Cookie} value storing {@code session}. */
    public String cookie(ConsoleSession session) {
        return SessionCookies.set(seal.seal(session));
    }
}
