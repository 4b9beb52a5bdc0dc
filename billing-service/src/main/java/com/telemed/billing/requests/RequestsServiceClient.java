package com.telemed.billing.requests;

import com.telemed.common.remote.RemoteCalls;
import com.telemed.common.remote.RemoteService;
import com.telemed.common.remote.ServiceUrls;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * The one way billing-service reads requests-service (the first approval per member, for a rebuild),
 * under the platform's remote-call policy; the URL is {@code platform.service-urls.requests-service}.
 * Never inside a transaction (docs/architecture.md, "Service shape"; issue 38): a call made with one
 * open fails at once, before anything is sent.
 */
@ApplicationScoped
public class RequestsServiceClient {

    /** First approvals per page. */
    static final int PAGE = 1000;

    private final RequestsApi api;
    private final RemoteService requests;

    public RequestsServiceClient(ServiceUrls urls, RemoteCalls calls) {
        this.api = calls.client(RequestsApi.class, urls.of("requests-service"));
        this.requests = calls.service("requests-service");
    }

    /** The partner's first approvals after {@code after} (null: from the first), by member id. */
    public RequestsApi.ApprovalsPage firstApprovals(String partnerId, UUID after) {
        if (QuarkusTransaction.isActive()) {
            throw new IllegalStateException("requests-service first-approvals called inside a transaction");
        }
        return requests.call("first-approvals", () -> api.firstApprovals(partnerId, after == null ? null : after.toString(), PAGE));
    }
}
