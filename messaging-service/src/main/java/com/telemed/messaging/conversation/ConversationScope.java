package com.telemed.messaging.conversation;

import com.telemed.common.access.Principal;
import com.telemed.common.access.Principal.Role;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import java.util.Optional;
import java.util.UUID;

/**
 * Which conversations an {@code /ops} call may act on (people-and-pages.md, "Principals and roles": a
 * prescriber acts on conversations "as themselves only"). A person without the {@code support} or
 * {@code admin} role reaches a conversation only when its {@code prescriber_id} is their prescriber
 * id; another prescriber's reads as unknown, {@code 404 Conversation not found}, as another
 * pharmacy's order does. The operator key, support and administrators reach any partner's.
 * platform-commons' {@code access.OpsAccessFilter} has already decided who may call the operation.
 */
public final class ConversationScope {

    /** Every conversation: the operator key, support, an administrator. */
    public static final ConversationScope ANY = new ConversationScope(true, null);

    private final boolean any;
    private final UUID prescriberId;

    private ConversationScope(boolean any, UUID prescriberId) {
        this.any = any;
        this.prescriberId = prescriberId;
    }

    /** The scope of the call's principal (a prescriber in person whose account names no prescriber reaches none). */
    public static ConversationScope of(Optional<Principal> principal) {
        return principal.filter(ConversationScope::ownOnly)
                .map(person -> new ConversationScope(false, person.prescriberId().flatMap(Ids::uuid).orElse(null)))
                .orElse(ANY);
    }

    private static boolean ownOnly(Principal principal) {
        return principal.type() == Principal.Type.PERSON && !principal.has(Role.SUPPORT) && !principal.has(Role.ADMIN);
    }

    /** Whether the scope reaches every conversation. */
    boolean any() {
        return any;
    }

    /** The prescriber whose conversations a prescriber in person reaches; null for {@link #ANY}, or when their account names none. */
    UUID prescriberId() {
        return prescriberId;
    }

    public boolean reaches(Conversation conversation) {
        return any || (prescriberId != null && prescriberId.equals(conversation.prescriberId));
    }

    /** {@code conversation} when the scope reaches it, else {@code 404 Conversation not found}. */
    public Conversation check(Conversation conversation) {
        if (!reaches(conversation)) {
            throw ApiException.notFound(Conversation.NOT_FOUND);
        }
        return conversation;
    }
}
