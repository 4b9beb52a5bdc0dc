package com.telemed.requests.member;

import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.UUID;

/**
 * The member of a create (issue 23): by id from requests-service's copy ({@link MemberCopies}) when the
 * copy is current, else read through from members-service and kept; the inline member always from
 * members-service's find-or-create, which fences the change it makes first.
 */
@ApplicationScoped
public class MemberLookup {

    /**
     * How many fences one inline member may ask for before the create gives up with a 503. Each one after
     * the first follows a concurrent change of the same member that committed first, so N concurrent
     * creates with one inline member need at most N; members-service's {@code PUT} gives up after as many.
     */
    static final int FENCE_ROUNDS = 10;

    private final MemberCopies copies;
    private final MembersClient members;

    public MemberLookup(MemberCopies copies, MembersClient members) {
        this.copies = copies;
        this.members = members;
    }

    /** The partner's member, or empty for an unknown, foreign, deleted or malformed id. */
    public Optional<MemberSnapshot> byId(String partnerId, String memberId) {
        Optional<UUID> id = Ids.uuid(memberId);
        if (id.isEmpty()) {
            return Optional.empty();
        }
        return byId(partnerId, memberId, copies.current(partnerId, id.get()));
    }

    /**
     * {@link #byId(String, String)} with the copy already read ({@code copied}: the current copy, or empty):
     * the member read through and kept when the copy had nothing current.
     */
    public Optional<MemberSnapshot> byId(String partnerId, String memberId, Optional<MemberSnapshot> copied) {
        if (copied.isPresent()) {
            return copied;
        }
        Optional<MemberSnapshot> read = members.find(partnerId, memberId).map(MemberSnapshot::of);
        read.ifPresent(member -> copies.store(partnerId, member));
        return read;
    }

    /**
     * The inline member of a create: found by email and updated, or created, by members-service. A change
     * of an existing member is committed there only after its fence is recorded here: members-service
     * answers the fence instead of the member, the fence is recorded, and the same ask is repeated naming
     * it. What is answered is kept in the copy.
     */
    public MemberSnapshot inline(String partnerId, InlineMember member) {
        MembersApi.Fence fenced = null;
        for (int round = 0; round <= FENCE_ROUNDS; round++) {
            MembersClient.FoundOrFence answer = members.findOrCreate(partnerId, member.sent(), fenced);
            if (answer.member() != null) {
                MemberSnapshot found = MemberSnapshot.of(answer.member());
                copies.store(partnerId, found);
                return found;
            }
            fenced = answer.fence();
            copies.fence(partnerId, UUID.fromString(fenced.memberId()), fenced.version());
        }
        throw new ApiException(503, "Service Unavailable");
    }
}
