package com.telemed.members.requests;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * Body of {@code POST /internal/requests/summaries}:
 * {@code {"partnerId": "...", "memberIds": ["...", ...], "limitPerMember": n}} (n from 1 to 100).
 */
@JsonPropertyOrder({"partnerId", "memberIds", "limitPerMember"})
public record SummariesQuery(String partnerId, List<String> memberIds, int limitPerMember) {
}
