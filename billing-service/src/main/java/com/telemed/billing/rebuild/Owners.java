package com.telemed.billing.rebuild;

import com.telemed.common.remote.RemoteCalls;
import com.telemed.common.remote.RemoteService;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * The one way billing-service reads the owners' data, under the platform's remote-call policy.
 * Never inside a transaction (docs/architecture.md, "Service shape"; issue 38): a call made with one
 * open fails at once, before anything is sent.
 */
@ApplicationScoped
public class Owners {

    /** Members (and first approvals) per page. */
    static final int PAGE = 1000;

    private final OwnersApi.Members membersApi;
    private final OwnersApi.Requests requestsApi;
    private final RemoteService members;
    private final RemoteService requests;

    public Owners(OwnerUrls urls, RemoteCalls calls) {
        this.membersApi = calls.client(OwnersApi.Members.class, urls.membersUrl());
        this.requestsApi = calls.client(OwnersApi.Requests.class, urls.requestsUrl());
        this.members = calls.service("members-service");
        this.requests = calls.service("requests-service");
    }

    public OwnersApi.MembersPage members(String partnerId, UUID after) {
        outsideTransactions(members, "billing-export");
        return members.call("billing-export", () -> membersApi.export(partnerId, after == null ? null : after.toString(), PAGE));
    }

    public OwnersApi.ApprovalsPage firstApprovals(String partnerId, UUID after) {
        outsideTransactions(requests, "first-approvals");
        return requests.call("first-approvals",
                () -> requestsApi.firstApprovals(partnerId, after == null ? null : after.toString(), PAGE));
    }

    private static void outsideTransactions(RemoteService service, String operation) {
        if (QuarkusTransaction.isActive()) {
            throw new IllegalStateException(service.name() + " " + operation + " called inside a transaction");
        }
    }
}
