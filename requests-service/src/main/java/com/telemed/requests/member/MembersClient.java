package com.telemed.requests.member;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.common.trust.ServiceProofSigner;
import com.telemed.requests.remote.PassedThrough;
import com.telemed.requests.remote.RemoteCalls;
import com.telemed.requests.remote.RemoteConfig;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import java.net.URI;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The one way requests-service talks to members-service: owns the client, its timeouts, and
 * what each answer means here. Retries and 503s come from {@link RemoteCalls}. Every call names
 * the partner, and members-service only ever matches that partner's members.
 */
@ApplicationScoped
public class MembersClient {

    private static final String SERVICE = "members-service";

    private final MembersApi api;
    private final RemoteCalls calls;

    public MembersClient(RemoteConfig config, RemoteCalls calls, ServiceProofSigner signer) {
        this.calls = calls;
        this.api = QuarkusRestClientBuilder.newBuilder()
                .baseUri(URI.create(config.membersUrl()))
                .connectTimeout(config.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(config.readTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .register(signer)
                .build(MembersApi.class);
    }

    /** The partner's member, or empty for an unknown, foreign or malformed id. */
    public Optional<MemberRecord> find(String partnerId, String memberId) {
        if (Ids.uuid(memberId).isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(calls.call(SERVICE, "get", () -> api.get(memberId, partnerId)).member());
        } catch (WebApplicationException e) {
            if (e.getResponse().getStatus() == 404) {
                return Optional.empty();
            }
            throw unexpected(e);
        }
    }

    /**
     * The partner's member with this email, updated with the sent fields, or a new one. An
     * invalid inline member answers members-service's issues as they are (paths under
     * {@code member}). Safe to retry: a retry finds the member a failed attempt created.
     */
    public MemberRecord findOrCreate(String partnerId, JsonNode inlineMember) {
        try {
            return calls.call(SERVICE, "find-or-create", () -> api.findOrCreate(new MembersApi.FindOrCreate(partnerId, inlineMember))).member();
        } catch (WebApplicationException e) {
            if (e.getResponse().getStatus() == 400) {
                throw new PassedThrough(400, e.getResponse().readEntity(JsonNode.class));
            }
            throw unexpected(e);
        }
    }

    /** The partner's members among these ids, by id; unknown ones are absent. */
    public Map<UUID, MemberRecord> batch(String partnerId, Collection<UUID> memberIds) {
        if (memberIds.isEmpty()) {
            return Map.of();
        }
        List<String> ids = memberIds.stream().distinct().map(UUID::toString).toList();
        try {
            return calls.call(SERVICE, "batch", () -> api.batch(new MembersApi.Batch(partnerId, ids))).members().stream()
                    .collect(Collectors.toMap(MemberRecord::id, Function.identity(), (first, second) -> first));
        } catch (WebApplicationException e) {
            throw unexpected(e);
        }
    }

    private static ApiException unexpected(WebApplicationException e) {
        return new ApiException(503, "Service Unavailable");
    }
}
