package com.telemed.members.member;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Placeholder until requests-service is asked: every member has no requests. See {@link RequestSummaries}. */
@DefaultBean
@ApplicationScoped
public class NoRequestSummaries implements RequestSummaries {

    @Override
    public Map<UUID, List<RequestSummary>> forMembers(String partnerId, Collection<UUID> memberIds) {
        return Map.of();
    }
}
