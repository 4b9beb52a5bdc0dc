package com.telemed.messaging.conversation;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.common.json.Timestamps;
import com.telemed.messaging.members.MemberCard;
import com.telemed.messaging.members.MembersClient;
import com.telemed.messaging.requests.PrescriberCard;
import com.telemed.messaging.requests.PrescriberResolution;
import com.telemed.messaging.requests.RequestsServiceClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Finding, creating and reading conversations. The calls to members-service and requests-service
 * are made before the transaction that writes (never inside one); the write itself is one
 * {@code INSERT ... ON CONFLICT DO NOTHING}, so two identical creates make one conversation.
 */
@ApplicationScoped
public class ConversationService {

    static final String NO_PRESCRIBER = "no_prescriber_assigned";
    static final String PRESCRIBER_NOT_FOUND = "Prescriber not found";

    private final MembersClient members;
    private final RequestsServiceClient requests;
    private final AuditTrail audit;

    public ConversationService(MembersClient members, RequestsServiceClient requests, AuditTrail audit) {
        this.members = members;
        this.requests = requests;
        this.audit = audit;
    }

    public record FoundOrCreated(Conversation conversation, boolean created) {
    }

    /** The conversation between the member and their current prescriber, created when new. */
    public FoundOrCreated forMember(String partnerId, String memberId) {
        MemberCard member = members.require(partnerId, memberId);
        UUID prescriberId = PrescriberResolution.currentPrescriber(requests.requestsOf(partnerId, member.id()))
                .orElseThrow(() -> new ApiException(409, NO_PRESCRIBER));
        // Assigned by a request, so requests-service knows the prescriber; not finding them is its failure.
        PrescriberCard prescriber = requests.prescriber(prescriberId)
                .orElseThrow(() -> new ApiException(503, "Service Unavailable"));
        return findOrCreate(partnerId, member, prescriber);
    }

    /** The conversation of the pair, created when new ({@code 404 Prescriber not found} for an unknown prescriber). */
    public FoundOrCreated forPair(String partnerId, String memberId, String prescriberId) {
        MemberCard member = members.require(partnerId, memberId);
        PrescriberCard prescriber = Ids.uuid(prescriberId).flatMap(requests::prescriber)
                .orElseThrow(() -> ApiException.notFound(PRESCRIBER_NOT_FOUND));
        return findOrCreate(partnerId, member, prescriber);
    }

    @Transactional
    FoundOrCreated findOrCreate(String partnerId, MemberCard member, PrescriberCard prescriber) {
        boolean created = Conversation.insertUnlessExists(partnerId, member, prescriber, Timestamps.now());
        Conversation conversation = Conversation.findPair(partnerId, member.id(), prescriber.id())
                .orElseThrow(() -> new IllegalStateException("conversation missing after its insert"));
        return new FoundOrCreated(conversation, created);
    }

    /**
     * The member's conversations with this partner, most recently active first. A member with none
     * is asked about: the partner's own member has an empty list, anyone else is {@code 403 Member
     * does not belong to this partner} (partner-api.md: "not the partner's, or does not exist").
     */
    public List<Conversation> ofMember(String partnerId, String memberId) {
        List<Conversation> conversations = listOfMember(partnerId, memberId);
        if (conversations.isEmpty() && !members.isPartners(partnerId, memberId)) {
            throw new ApiException(403, MembersClient.NOT_THE_PARTNERS);
        }
        return conversations;
    }

    @Transactional
    List<Conversation> listOfMember(String partnerId, String memberId) {
        return Ids.uuid(memberId).map(id -> Conversation.ofMember(partnerId, id)).orElse(List.of());
    }

    @Transactional
    public Conversation owned(String partnerId, String conversationId) {
        return Conversation.requireOwned(partnerId, conversationId);
    }

    /** Unread messages across the member's conversations with this partner; 0 for a member with none. */
    @Transactional
    public long unreadByMember(String partnerId, String memberId) {
        return Ids.uuid(memberId).map(id -> Conversation.unreadByMember(partnerId, id)).orElse(0L);
    }

    /** A page of the console's list of threads, and the cursor after it (null: the last page). */
    public record ConsolePage(List<Conversation> conversations, String nextCursor) {
    }

    /**
     * {@code GET /ops/v1/conversations}: a page of the threads the scope reaches, in the list's order
     * ({@link Conversation#console}). A person's read writes one {@code conversation.list} entry in this
     * transaction (no target: the threads are listed, not opened; they span partners); the operator
     * key's writes none.
     */
    @Transactional
    public ConsolePage console(ConversationScope scope, ConversationSchemas.ListQuery query) {
        Instant asOf = query.after().map(ConversationCursor::asOf).orElseGet(Timestamps::now);
        List<Conversation.Placed> page = Conversation.console(scope, query.unreadOnly(), asOf, query.after(), query.limit() + 1);
        boolean more = page.size() > query.limit();
        List<Conversation.Placed> shown = more ? page.subList(0, query.limit()) : page;
        audit.recordRead("conversation.list", "conversation", null, null);
        Conversation.Placed last = more ? shown.get(shown.size() - 1) : null;
        return new ConsolePage(shown.stream().map(Conversation.Placed::conversation).toList(),
                last == null ? null : new ConversationCursor(asOf, last.unread(), last.lastMessageAt(), last.conversation().id).encode());
    }

    /** {@code POST .../read}: the member read the thread. */
    @Transactional
    public void readByMember(String partnerId, String conversationId) {
        Conversation.lockOwned(partnerId, conversationId).readByMember(Timestamps.now());
    }
}
