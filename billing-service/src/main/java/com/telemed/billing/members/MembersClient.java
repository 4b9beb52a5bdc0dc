package com.telemed.billing.members;

import com.telemed.common.remote.RemoteCalls;
import com.telemed.common.remote.RemoteService;
import com.telemed.common.remote.ServiceUrls;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * The one way billing-service reads members-service (its billing export, for a rebuild), under the
 * platform's remote-call policy; the URL is {@code platform.service-urls.members-service}. Never inside a
 * transaction (docs/architecture.md, "Service shape"; issue 38): a call made with one open fails at once,
 * before anything is sent.
 */
@ApplicationScoped
public class MembersClient {

    /** Members per page. */
    static final int PAGE = 1000;

    private final MembersApi api;
    private final RemoteService members;

    public MembersClient(ServiceUrls urls, RemoteCalls calls) {
        this.api = calls.client(MembersApi.class, urls.of("members-service"));
        this.members = calls.service("members-service");
    }

    /** The partner's members after {@code after} (null: from the first), by member id. */
    public MembersApi.MembersPage page(String partnerId, UUID after) {
        if (QuarkusTransaction.isActive()) {
            throw new IllegalStateException("members-service billing-export called inside a transaction");
        }
        return members.call("billing-export", () -> api.export(partnerId, after == null ? null : after.toString(), PAGE));
    }
}
