package com.telemed.common.remote;

import com.telemed.common.trust.ServiceProofSigner;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The one way a platform service calls another: {@link #client} builds the REST client with the
 * policy's timeouts and the service proof, {@link #service} gives the called service's
 * {@link RemoteService} (retries, circuit breaker, which answers are answers). One breaker per
 * called service, shared by every client of it in this process.
 *
 * <p>Brings no extension of its own: a service that calls another declares
 * {@code quarkus-rest-client-jackson} and {@code quarkus-smallrye-fault-tolerance}; in the
 * others nothing injects this bean and Quarkus removes it.
 */
@ApplicationScoped
public class RemoteCalls {

    private final RemoteConfig config;
    private final ServiceProofSigner signer;
    private final RequestIdForwarder requestIds;
    private final Map<String, RemoteService> services = new ConcurrentHashMap<>();

    public RemoteCalls(RemoteConfig config, ServiceProofSigner signer, RequestIdForwarder requestIds) {
        this.config = config;
        this.signer = signer;
        this.requestIds = requestIds;
    }

    /**
     * A REST client of {@code api} at {@code baseUrl}: the policy's timeouts, every call signed and
     * carrying the calling request's id (and, by OpenTelemetry's instrumentation, its traceparent).
     */
    public <A> A client(Class<A> api, String baseUrl) {
        return QuarkusRestClientBuilder.newBuilder()
                .baseUri(URI.create(baseUrl))
                .connectTimeout(config.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(config.readTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .register(signer)
                .register(requestIds)
                .build(api);
    }

    /** The called service by its name (as logs show it, e.g. {@code members-service}). */
    public RemoteService service(String name) {
        return services.computeIfAbsent(name, called -> new RemoteService(called, config));
    }
}
