package com.telemed.requests.member;

import java.util.UUID;

/**
 * What a create snapshots of its member (the request's {@code member_*} columns), and the member's
 * version at members-service when it was read (0 when members-service did not say).
 */
public record MemberSnapshot(UUID id, String firstName, String lastName, String email, String dateOfBirth, String state,
                             long version) {

    /** The request's {@code memberName}: first and last name, trimmed. */
    public String name() {
        return (firstName + " " + lastName).trim();
    }

    static MemberSnapshot of(MemberRecord member) {
        return new MemberSnapshot(member.id(), member.firstName(), member.lastName(), member.email(), member.dateOfBirth(),
                member.state(), member.version() == null ? 0 : member.version());
    }
}
