package com.telemed.web.console.session;

import com.telemed.common.access.Principal.Role;
import com.telemed.web.ops.OpsClient;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Who the console's request is for: the session {@link SessionFilter} opened from the cookie (none on
 * the sign-in page), and whether the answer stores it again ({@link ConsoleSessions#refreshed}).
 * The role and form checks every page and action makes first, before anything is asked of the gateway.
 */
@RequestScoped
public class SignedIn {

    @Inject
    OpsClient ops;

    private ConsoleSession session;
    private boolean reissue;
    private String unread;

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

    /**
     * The header of a page for this session, with the number of unread threads ({@link #unread()});
     * null without a session (the sign-in page).
     */
    public Nav nav() {
        return session == null ? null : nav(conversations() ? unread() : "");
    }

    /** The header of an error page: nothing is asked of the gateway for it. */
    public Nav navWithoutCounts() {
        return session == null ? null : nav("");
    }

    private Nav nav(String unread) {
        return new Nav(session.name(), session.hasAny(Role.PRESCRIBER, Role.SUPPORT), session.has(Role.ADMIN), session.csrf(),
                session.prescriber(), conversations(), unread, session.hasAny(Role.ADMIN, Role.SUPPORT));
    }

    private boolean conversations() {
        return session.hasAny(Role.PRESCRIBER, Role.SUPPORT, Role.ADMIN);
    }

    /**
     * The nav's unread text ({@code (3 unread)}, {@code (100+ unread)}, empty for none): the threads with
     * unread patient messages ({@code GET /ops/v1/conversations?unread=true&limit=100}), asked once per
     * answer. A count the gateway does not give (refused, down) is left out: the page is shown all the same.
     */
    public String unread() {
        if (unread == null) {
            unread = UnreadThreads.text(ops, session().token());
        }
        return unread;
    }
}
