package com.telemed.web.ops;

/**
 * The gateway answered {@code 401} to a call made with the console's session token: the session ended
 * (signed out elsewhere, expired, the account deleted). The console answers {@code 303} to its sign-in
 * page and clears its cookie.
 */
public final class SignedOut extends RuntimeException {

    public SignedOut() {
        super(null, null, false, false);
    }
}
