package com.telemed.gateway.identity;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

/**
 * Password hashes of local accounts: Argon2id (Bouncy Castle's {@link Argon2BytesGenerator}),
 * stored as a PHC string, {@code $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>} (salt and hash in
 * base64 without padding). A hash is verified with the parameters read back from its own string, so
 * they can be raised later without touching the stored ones; the comparison is in constant time.
 *
 * <p>Parameters: OWASP's minimum for Argon2id (Password Storage Cheat Sheet): 19 MiB of memory,
 * 2 iterations, 1 lane; a 16-byte random salt and a 32-byte hash. A string whose parameters are
 * outside {@link #MAX_MEMORY_KIB}, {@link #MAX_ITERATIONS} or {@link #MAX_PARALLELISM} (a tampered
 * row) verifies nothing rather than making a sign-in allocate gigabytes. At most
 * {@link #CONCURRENT_RUNS} hashes run at once (each takes 19 MiB): more sign-ins wait their turn.
 */
public final class Passwords {

    public static final int MEMORY_KIB = 19_456;
    public static final int ITERATIONS = 2;
    public static final int PARALLELISM = 1;
    static final int SALT_BYTES = 16;
    static final int HASH_BYTES = 32;
    static final int MAX_MEMORY_KIB = 262_144;
    static final int MAX_ITERATIONS = 16;
    static final int MAX_PARALLELISM = 8;
    static final int CONCURRENT_RUNS = Math.max(2, Runtime.getRuntime().availableProcessors());

    private static final Pattern PHC = Pattern.compile(
            "\\$argon2id\\$v=19\\$m=(\\d{1,9}),t=(\\d{1,9}),p=(\\d{1,9})\\$([A-Za-z0-9+/]{11,88})\\$([A-Za-z0-9+/]{22,88})");
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder ENCODER = Base64.getEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getDecoder();
    private static final Semaphore RUNS = new Semaphore(CONCURRENT_RUNS, true);

    /**
     * The hash a sign-in with an unknown email is verified against, made once with the current
     * parameters: the answer and its time are those of a wrong password.
     */
    private static final String DUMMY = hash(ENCODER.encodeToString(random(SALT_BYTES)));

    private Passwords() {
    }

    /** A new PHC string for {@code password}, with a fresh salt and the current parameters. */
    public static String hash(String password) {
        byte[] salt = random(SALT_BYTES);
        byte[] hash = argon2(password, salt, MEMORY_KIB, ITERATIONS, PARALLELISM, HASH_BYTES);
        return "$argon2id$v=19$m=" + MEMORY_KIB + ",t=" + ITERATIONS + ",p=" + PARALLELISM
                + "$" + ENCODER.encodeToString(salt) + "$" + ENCODER.encodeToString(hash);
    }

    /**
     * Whether {@code password} is the one {@code stored} was made from. Empty {@code stored} (no
     * such account) runs the same Argon2id against a fixed dummy hash and answers false, so the
     * caller cannot tell an unknown email from a wrong password, by the answer or by its time.
     * A string that is not a PHC Argon2id string of this form verifies nothing.
     */
    public static boolean verify(String password, Optional<String> stored) {
        boolean known = stored.isPresent();
        return verify(password, stored.orElse(DUMMY)) && known;
    }

    /** Whether {@code password} matches the PHC string {@code stored}; false for anything malformed. */
    public static boolean verify(String password, String stored) {
        Matcher phc = stored == null ? null : PHC.matcher(stored);
        if (phc == null || !phc.matches()) {
            return false;
        }
        try {
            int memory = Integer.parseInt(phc.group(1));
            int iterations = Integer.parseInt(phc.group(2));
            int parallelism = Integer.parseInt(phc.group(3));
            byte[] salt = DECODER.decode(phc.group(4));
            byte[] expected = DECODER.decode(phc.group(5));
            if (memory < 8 * parallelism || memory > MAX_MEMORY_KIB || iterations < 1 || iterations > MAX_ITERATIONS
                    || parallelism < 1 || parallelism > MAX_PARALLELISM || salt.length < 8 || expected.length < 16) {
                return false;
            }
            byte[] actual = argon2(password, salt, memory, iterations, parallelism, expected.length);
            return MessageDigest.isEqual(actual, expected);
        } catch (IllegalArgumentException malformed) {
            return false;
        }
    }

    private static byte[] argon2(String password, byte[] salt, int memoryKib, int iterations, int parallelism, int length) {
        Argon2Parameters parameters = new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13)
                .withMemoryAsKB(memoryKib)
                .withIterations(iterations)
                .withParallelism(parallelism)
                .withSalt(salt)
                .build();
        Argon2BytesGenerator generator = new Argon2BytesGenerator();
        generator.init(parameters);
        byte[] bytes = password.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[length];
        RUNS.acquireUninterruptibly();
        try {
            generator.generateBytes(bytes, out);
        } finally {
            RUNS.release();
            Arrays.fill(bytes, (byte) 0);
        }
        return out;
    }

    private static byte[] random(int length) {
        byte[] bytes = new byte[length];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
