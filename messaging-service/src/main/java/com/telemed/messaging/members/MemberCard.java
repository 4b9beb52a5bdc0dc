package com.telemed.messaging.members;

import java.util.UUID;

/** A member as a conversation caches it: the name as {@code first last}, and the email. */
public record MemberCard(UUID id, String name, String email) {
}
