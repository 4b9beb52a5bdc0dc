package com.telemed.messaging.members;

import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.common.remote.Answers;
import com.telemed.common.remote.RemoteCalls;
import com.telemed.common.remote.RemoteService;
import com.telemed.common.remote.ServiceUrls;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import java.util.UUID;

/**
 * The one way messaging-service asks members-service about a member. Messaging's ownership rule
 * (partner-api.md, Authentication rule 9) tells another partner's member from an unknown one, so
 * both 403 and 404 are answers here; anything else fails as the platform's policy says (503).
 */
@ApplicationScoped
public class MembersClient {

    public static final String NOT_THE_PARTNERS = "Member does not belong to this partner";
    public static final String NOT_FOUND = "Member not found";

    private final MembersApi api;
    private final RemoteService members;

    public MembersClient(ServiceUrls urls, RemoteCalls calls) {
        this.api = calls.client(MembersApi.class, urls.of("members-service"));
        this.members = calls.service("members-service");
    }

    /**
     * The partner's member; {@code 403 Member does not belong to this partner} for another
     * partner's, {@code 404 Member not found} for an unknown one (a malformed id is unknown: it
     * is never sent).
     */
    public MemberCard require(String partnerId, String memberId) {
        UUID id = Ids.uuid(memberId).orElseThrow(() -> ApiException.notFound(NOT_FOUND));
        try {
            MemberEnvelope answer = members.call("member-access", Answers.of(403, 404),
                    () -> api.access(id.toString(), partnerId));
            if (answer == null || answer.member() == null) {
                throw new ApiException(503, "Service Unavailable");
            }
            MemberEnvelope.Member member = answer.member();
            return new MemberCard(id, fullName(member.firstName(), member.lastName()), member.email() == null ? "" : member.email());
        } catch (WebApplicationException answered) {
            throw answered.getResponse().getStatus() == 403 ? new ApiException(403, NOT_THE_PARTNERS)
                    : ApiException.notFound(NOT_FOUND);
        }
    }

    /** Whether the member is the partner's: false for another partner's and for an unknown one. */
    public boolean isPartners(String partnerId, String memberId) {
        try {
            require(partnerId, memberId);
            return true;
        } catch (ApiException refused) {
            if (refused.status() == 403 || refused.status() == 404) {
                return false;
            }
            throw refused;
        }
    }

    static String fullName(String first, String last) {
        String name = ((first == null ? "" : first) + " " + (last == null ? "" : last)).trim();
        return name;
    }
}
