package com.telemed.messaging.members;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The answer of members-service's access check: only what a conversation caches. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record MemberEnvelope(Member member) {

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Member(String id, String firstName, String lastName, String email) {
    }
}
