package com.telemed.messaging.requests;

import java.util.UUID;

/** A prescriber as a conversation caches it. */
public record PrescriberCard(UUID id, String name, String email) {
}
