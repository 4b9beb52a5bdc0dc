package com.telemed.members.requests;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/** Body of {@code POST /internal/requests/summaries}: {@code {"partnerId": "...", "memberIds": ["...", ...]}}. */
@JsonPropertyOrder({"partnerId", "memberIds"})
public record SummariesQuery(String partnerId, List<String> memberIds) {
}
