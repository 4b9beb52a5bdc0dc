package com.telemed.billing.rebuild;

import com.telemed.common.remote.RemoteCalls;
import com.telemed.common.remote.RemoteService;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/** The one way billing-service reads the owners' data, under the platform's remote-call policy. */
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
        return members.call("billing-export", () -> membersApi.export(partnerId, after == null ? null : after.toString(), PAGE));
    }

    public OwnersApi.ApprovalsPage firstApprovals(String partnerId, UUID after) {
        return requests.call("first-approvals",
                () -> requestsApi.firstApprovals(partnerId, after == null ? null : after.toString(), PAGE));
    }
}
