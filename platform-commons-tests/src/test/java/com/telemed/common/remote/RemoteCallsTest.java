package com.telemed.common.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.error.ApiException;
import com.telemed.common.partner.PartnerContext;
import com.telemed.common.trust.ServiceProof;
import com.telemed.common.trust.ServiceProofSigner;
import com.telemed.common.trust.ServiceTrust;
import com.telemed.testkit.http.FakeNeighbour;
import com.telemed.testkit.infra.FreePorts;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.inject.Vetoed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link RemoteCalls} against a real HTTP neighbour on loopback (testkit's {@link FakeNeighbour}):
 * the client it builds signs every call and keeps to the policy's read timeout, and the called
 * service's {@link RemoteService} is one per name.
 */
@QuarkusTest
class RemoteCallsTest {

    private static final long READ_TIMEOUT_MS = 400;

    @Path("/internal/things")
    @Produces(MediaType.APPLICATION_JSON)
    public interface ThingsApi {
        @GET
        @Path("/{id}")
        Thing get(@PathParam("id") String id, @HeaderParam(PartnerContext.HEADER) String partnerId);
    }

    public record Thing(String id) {
    }

    /**
     * Answers {@code {"id": ...}} for every id but {@code missing} (404); checks proofs as a platform
     * service does. Started by the test itself, not a bean (its inherited lifecycle observers would
     * make it one).
     */
    @Vetoed
    static final class Things extends FakeNeighbour {
        /** The X-Principal of each call answered (its proof covers it: proofs are checked above). */
        final List<String> principals = new java.util.concurrent.CopyOnWriteArrayList<>();

        Things(String url, ServiceTrust trust) {
            super(url, request -> trust.verify(request) == ServiceProof.Verdict.PROVEN);
        }

        @Override
        protected void answerNormally(HttpServerRequest request, Call call) {
            principals.add(String.valueOf(request.getHeader("X-Principal")));
            String id = call.path().substring("/internal/things/".length());
            if (id.equals("missing")) {
                answer(request, 404, new JsonObject().put("error", "Thing not found"));
            } else {
                answer(request, 200, new JsonObject().put("id", id));
            }
        }
    }

    @Inject
    ServiceTrust trust;

    @Inject
    ServiceProofSigner signer;

    private Things things;
    private ThingsApi api;
    private RemoteService service;

    @BeforeEach
    void start() throws Exception {
        int port = FreePorts.next();
        things = new Things("http://127.0.0.1:" + port, trust);
        things.start();
        RemoteCalls calls = new RemoteCalls(
                new RemoteServiceTest.TestPolicy(2, 1_000_000, Duration.ofMillis(READ_TIMEOUT_MS)), signer, new RequestIdForwarder());
        api = calls.client(ThingsApi.class, "http://127.0.0.1:" + port);
        service = calls.service("things-service");
        assertSame(service, calls.service("things-service"));
    }

    @AfterEach
    void stop() {
        things.stop();
    }

    @Test
    void everyCallIsSignedAndReadAsTheTypedAnswer() {
        assertEquals(new Thing("t-1"), service.call("get", () -> api.get("t-1", "partner-a")));
        assertEquals(List.of(), things.unproven());
        assertEquals(List.of("/internal/things/t-1"), things.calls().stream().map(FakeNeighbour.Call::path).toList());
        // A service calls as itself (issue #40): service:<quarkus.application.name>, signed with the rest.
        assertEquals(List.of("service:platform-commons"), things.principals);
    }

    @Test
    void aNotFoundAnswerReachesTheCaller() {
        WebApplicationException notFound = assertThrows(WebApplicationException.class,
                () -> service.call("get", Answers.of(404), () -> api.get("missing", "partner-a")));
        assertEquals(404, notFound.getResponse().getStatus());
        assertEquals(1, things.calls().size());
    }

    @Test
    void aNeighbourSlowerThanTheReadTimeoutIsAskedTwiceThenServiceUnavailable() {
        things.failAlways(FakeNeighbour.Failure.SLOW);
        long started = System.nanoTime();
        ApiException failure = assertThrows(ApiException.class, () -> service.call("get", () -> api.get("t-2", "partner-a")));
        long tookMs = (System.nanoTime() - started) / 1_000_000;
        assertEquals(503, failure.status());
        assertEquals(2, things.calls().size());
        // Each attempt waited its read timeout (the lower bound) and was cut there: the neighbour answers
        // (200) after SLOW_MS, so an attempt that waited for it would have succeeded, and the 503 after
        // two calls above says neither did. No upper bound on the wall clock: on a loaded build (3.8 s
        // once, beside four modules and other builds on two cores) it measured the machine, not the policy.
        assertTrue(tookMs >= 2 * READ_TIMEOUT_MS, "took " + tookMs);
    }

    @Test
    void oneUnavailableAnswerIsRepeatedThenTheResultCounts() {
        things.failNext(FakeNeighbour.Failure.UNAVAILABLE_503);
        assertEquals(new Thing("t-3"), service.call("get", () -> api.get("t-3", "partner-a")));
        assertEquals(2, things.calls().size());
    }
}
