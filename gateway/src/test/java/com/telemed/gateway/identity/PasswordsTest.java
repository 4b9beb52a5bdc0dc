package com.telemed.gateway.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Argon2id in the PHC string format, and the rules around local accounts that need no database. */
class PasswordsTest {

    private static final String PASSWORD = "correct horse battery staple";

    @Test
    void hashesAsAPhcArgon2idStringWithOwaspsMinimumAndVerifiesIt() {
        String hash = Passwords.hash(PASSWORD);
        assertTrue(hash.matches("\\$argon2id\\$v=19\\$m=19456,t=2,p=1\\$[A-Za-z0-9+/]{22}\\$[A-Za-z0-9+/]{43}"), hash);
        assertEquals(16, Base64.getDecoder().decode(hash.split("\\$")[4]).length);
        assertEquals(32, Base64.getDecoder().decode(hash.split("\\$")[5]).length);
        assertTrue(Passwords.verify(PASSWORD, hash));
        assertTrue(Passwords.verify(PASSWORD, Optional.of(hash)));
        assertNotEquals(hash, Passwords.hash(PASSWORD), "every hash has a salt of its own");
    }

    @Test
    void aWrongPasswordOrNoAccountVerifiesNothing() {
        String hash = Passwords.hash(PASSWORD);
        assertFalse(Passwords.verify("correct horse battery stapler", hash));
        assertFalse(Passwords.verify("", hash));
        // No account: the dummy hash is checked (same work), and the answer is false even for its own password.
        assertFalse(Passwords.verify(PASSWORD, Optional.empty()));
    }

    /** The parameters are read back from the string: another implementation's hash verifies. */
    @Test
    void verifiesAHashMadeByAnotherImplementation() {
        // argon2-cffi's documented example (m=65536, t=3, p=4).
        String reference = "$argon2id$v=19$m=65536,t=3,p=4$MIIRqgvgQbgj220jfp0MPA$YfwJSVjtjSU0zzV/P3S9nnQ/USre2wvJMjfCIjrTQbg";
        assertTrue(Passwords.verify(PASSWORD, reference));
        assertFalse(Passwords.verify("Tr0ub4dor&3", reference));
    }

    @Test
    void aTamperedOrMalformedStringVerifiesNothing() {
        String hash = Passwords.hash(PASSWORD);
        String[] parts = hash.split("\\$");
        // The first character of the hash (the last one carries padding bits a decoder may ignore).
        char first = parts[5].charAt(0);
        String otherHash = hash.substring(0, hash.lastIndexOf('$') + 1) + (first == 'A' ? 'B' : 'A') + parts[5].substring(1);
        List<String> tampered = List.of(
                otherHash,
                hash.replace("m=19456", "m=19457"),
                hash.replace("t=2", "t=3"),
                hash.replace("$argon2id$", "$argon2i$"),
                hash.replace("v=19", "v=16"),
                "$" + parts[1] + "$" + parts[2] + "$" + parts[3] + "$" + parts[5] + "$" + parts[4],
                // Parameters past the bounds (a row that would make a sign-in allocate 4 GiB, or never end).
                hash.replace("m=19456", "m=4194304"),
                hash.replace("t=2", "t=1000000"),
                hash.replace("p=1", "p=64"),
                hash.substring(0, hash.lastIndexOf('$')),
                hash + "$",
                "",
                "plain text");
        for (String stored : tampered) {
            assertFalse(Passwords.verify(PASSWORD, stored), stored);
        }
        assertFalse(Passwords.verify(PASSWORD, (String) null));
    }

    @Test
    void localAccountsAreOnOutsideProductionUnlessTheSettingSays() {
        assertTrue(LocalAccounts.enabled(Optional.empty(), Optional.of("sandbox")));
        assertTrue(LocalAccounts.enabled(Optional.empty(), Optional.empty()));
        assertFalse(LocalAccounts.enabled(Optional.empty(), Optional.of("production")));
        assertTrue(LocalAccounts.enabled(Optional.of(true), Optional.of("production")));
        assertFalse(LocalAccounts.enabled(Optional.of(false), Optional.of("sandbox")));
    }

    @Test
    void bearerValuesAreToldApartByTheirFormAlone() {
        assertEquals(Optional.of("ops_0123456789abcdef0123456789abcdef"),
                BearerTokens.token("Bearer ops_0123456789abcdef0123456789abcdef"));
        assertEquals(Optional.of("abc"), BearerTokens.token("bearer  abc"));
        assertEquals(Optional.empty(), BearerTokens.token("Basic dXNlcjpwYXNz"));
        assertEquals(Optional.empty(), BearerTokens.token("Bearer"));
        assertEquals(Optional.empty(), BearerTokens.token("Bearer a b"));
        assertEquals(Optional.empty(), BearerTokens.token(null));
        assertEquals(BearerTokens.Kind.SESSION, BearerTokens.kind("ops_0123456789abcdef0123456789abcdef"));
        assertEquals(BearerTokens.Kind.PHARMACY_KEY, BearerTokens.kind("phk_0123456789abcdef0123456789abcdef"));
        assertEquals(BearerTokens.Kind.OTHER, BearerTokens.kind("ops_0123456789ABCDEF0123456789ABCDEF"));
        assertEquals(BearerTokens.Kind.OTHER, BearerTokens.kind("phk_0123456789abcdef0123456789abcde"));
        assertEquals(BearerTokens.Kind.OTHER, BearerTokens.kind("eyJhbGciOiJSUzI1NiJ9.e30.c2ln"));
    }
}
