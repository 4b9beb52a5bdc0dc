package com.telemed.e2e;

import com.telemed.e2e.fuzz.BadInputs;
import com.telemed.e2e.fuzz.Call;
import com.telemed.e2e.fuzz.Endpoints;
import com.telemed.e2e.fuzz.Fixture;
import com.telemed.e2e.fuzz.Oracle;
import com.telemed.testkit.e2e.RunningPlatform;
import java.security.SecureRandom;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Generated bad input across every partner, embed and operator endpoint ({@link Endpoints}, the
 * one table new endpoints join): wrong types, missing and unknown fields, huge, negative and
 * fractional numbers, U+0000 and lone surrogates, overlong strings, names with control characters
 * and line or paragraph separators, truncated and deeply nested JSON, invalid UTF-8, odd query
 * strings and path ids, wrong content types, odd credentials and headers, a proxy's headers
 * ({@code X-Forwarded-For}, {@code Forwarded}, {@code X-Forwarded-Proto}, {@code X-Forwarded-Host}:
 * no proxy is trusted, so they change nothing), oversized and chunked bodies, and the two
 * attachment uploads' {@code multipart/form-data} bodies ({@link com.telemed.e2e.fuzz.Multipart}:
 * file names with folders, traversal, control characters, line breaks, U+2028, quotes, bytes that
 * are not UTF-8 and overlong ones, part types off the allow-list, a missing or an extra
 * {@code file} part, odd, missing and wrong boundaries, damaged framing, empty files, files of 10
 * MB and one byte more, bodies past the gateway's limit, sent or only declared) ({@link BadInputs}).
 * Each call must answer below 500 with a JSON body ({@code {"error": ...}} when refused), and a
 * refused call must leave the owning service's tables exactly as they were ({@link Oracle}); an
 * upload whose body alone is odd gets the contract's answer ({@code 400 No file uploaded}, {@code
 * 400 File type <type> not allowed}, {@code 413 File too large}), and a stored one writes its
 * attachment, chunks and message only, under a safe name, with a link that downloads the same
 * bytes. A failure is shrunk by jqwik to the smallest call that still fails and reported with the
 * answer.
 *
 * <p>The platform is the one the Jupiter tests share ({@link RunningPlatform#shared()}: jqwik is a
 * JUnit Platform engine of its own, which Jupiter's parameter does not reach), started by this
 * property: jqwik's engine runs before Jupiter's (e2e/pom.xml), so the only writes beside its calls
 * are the background ones {@link Oracle} allows for.
 *
 * <p>The seed is fixed, so every build sends the same 10,000 calls. Other seeds on demand:
 * <pre>
 * ./mvnw -pl e2e -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dit.test=GeneratedBadInputIT -Dfailsafe.failIfNoSpecifiedTests=false -Dfuzz.seed=random
 * </pre>
 * {@code -Dfuzz.seed=random} draws a new seed (logged, and printed by jqwik with any failure);
 * {@code -Dfuzz.seed=<number>} replays one; {@code -Dfuzz.tries=<n>} changes the number of calls.
 * failsafe passes these system properties to the test JVM (see e2e/pom.xml).
 */
class GeneratedBadInputIT {

    /** The seed every build uses unless {@code fuzz.seed} says otherwise. */
    static final String FIXED_SEED = "20261121";
    static final int TRIES = 10_000;

    private static final System.Logger LOG = System.getLogger(GeneratedBadInputIT.class.getName());

    private static RunningPlatform.Handle platform;
    private static WebhookReceiver receiver;
    private static Fixture fixture;
    private static Oracle oracle;

    @BeforeContainer
    static void startPlatform() throws Exception {
        platform = RunningPlatform.shared();
        receiver = new WebhookReceiver((post, attempt) -> 204);
        fixture = Fixture.create(platform, receiver.url());
        oracle = new Oracle(platform, fixture);
    }

    /**
     * The platform stays for the Jupiter tests: what the property's successful creates left awaiting
     * review is denied, so that the review queue they read is theirs.
     */
    @AfterContainer
    static void closeClients() throws Exception {
        if (oracle != null) {
            LOG.log(System.Logger.Level.INFO, "Generated bad input: " + oracle.stats().summary());
            oracle.close();
        }
        if (fixture != null) {
            LOG.log(System.Logger.Level.INFO, "Generated bad input: denied the " + fixture.denyWhatAwaitsReview()
                    + " requests it left awaiting review");
            // Their events reach the receiver before it closes: nothing is left retrying in the background.
            fixture.settleDeliveries();
            fixture.close();
        }
        if (receiver != null) {
            receiver.close();
        }
    }

    @Property(tries = TRIES, seed = FIXED_SEED, edgeCases = EdgeCasesMode.NONE)
    @AddLifecycleHook(SeedAndTries.class)
    void everyBadInputIsRefusedWithJsonAndWritesNothing(@ForAll("calls") Call call) {
        oracle.check(call);
    }

    @Provide
    Arbitrary<Call> calls() {
        return BadInputs.calls();
    }

    /**
     * {@code -Dfuzz.seed=random|<number>} and {@code -Dfuzz.tries=<n>} over the annotation's values;
     * fails a run that checked fewer calls than it was to make.
     */
    static final class SeedAndTries implements AroundPropertyHook {
        @Override
        public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
            String seed = System.getProperty("fuzz.seed", "").trim();
            if (seed.equals("random")) {
                seed = Long.toString(new SecureRandom().nextLong());
            }
            if (!seed.isEmpty()) {
                context.attributes().setSeed(seed);
            }
            String tries = System.getProperty("fuzz.tries", "").trim();
            if (!tries.isEmpty()) {
                context.attributes().setTries(Integer.parseInt(tries));
            }
            int wanted = context.attributes().tries().orElse(TRIES);
            LOG.log(System.Logger.Level.INFO, "Generated bad input: seed " + context.attributes().seed().orElse("?")
                    + ", " + wanted + " tries");
            PropertyExecutionResult result = property.execute();
            // A property that passes without sending its calls would hide every bug it is there to find.
            if (result.status() == PropertyExecutionResult.Status.SUCCESSFUL && result.countChecks() < wanted) {
                return result.mapToFailed("only " + result.countChecks() + " of " + wanted + " calls were checked");
            }
            return result;
        }
    }
}
