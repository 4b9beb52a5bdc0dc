package com.telemed.web.console.session;

import com.telemed.common.access.Principal.Role;
import jakarta.enterprise.context.RequestScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Who the console's request is for: the session {@link SessionFilter} opened from the cookie (none on
 * the sign-in page), and whether the answer stores it again ({@link ConsoleSessions#refreshed}).
 * The role and form checks every page and action makes first, before anything is asked of the gateway.
 */
@RequestScoped
public class SignedIn {

    private ConsoleSession session;
    private boolean reissue;

    void set(ConsoleSession session, boolean reissue) {
        this.session = session;
        this.reissue = reissue;
    }

    boolean reissue() {
        return reissue;
    }

    /** The session; a page outside the sign-in one always has one ({@link SessionFilter}). */
    public ConsoleSession session() {
        if (session == null) {
            throw new IllegalStateException("no console session on this request");
        }
        return session;
    }

    public boolean present() {
        return session != null;
    }

    public String token() {
        return session().token();
    }

    /** The page or action is for one of {@code roles}: otherwise the 403 page. */
    public ConsoleSession require(Role... roles) {
        if (!session().hasAny(roles)) {
            throw ConsoleError.forbidden();
        }
        return session;
    }

    /** A form's {@code csrf} is this session's (compared in constant time): otherwise the expired-form page. */
    public void checkForm(String csrf) {
        byte[] expected = session().csrf().getBytes(StandardCharsets.UTF_8);
        byte[] sent = csrf == null ? new byte[0] : csrf.getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(expected, sent)) {
            throw ConsoleError.formExpired();
        }
    }

    /** The header of a page for this session; null without one (the sign-in page). */
    public Nav nav() {
        if (session == null) {
            return null;
        }
        return new Nav(session.name(), session.hasAny(Role.PRESCRIBER, Role.SUPPORT), session.has(Role.ADMIN), session.csrf(),
                session.prescriber());
    }
}
