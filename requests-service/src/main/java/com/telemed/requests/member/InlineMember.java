package com.telemed.requests.member;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A create's inline {@code member} (partner-api.md, create request), bound from the body as it was sent: it goes to
 * members-service's find-or-create as it came ({@link MemberLookup#inline}), and members-service owns the member's
 * rules (requests-service checks them first only to answer every issue at once). The tree is kept, not bound to
 * fields: docs/architecture.md's "Service shape" lets a value the contract keeps as sent stay one.
 */
public record InlineMember(@JsonValue JsonNode sent) {

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public InlineMember {
    }
}
