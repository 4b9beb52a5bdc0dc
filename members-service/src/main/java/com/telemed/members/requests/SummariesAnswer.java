package com.telemed.members.requests;

import com.telemed.members.member.RequestSummary;
import java.util.List;
import java.util.Map;

/**
 * Answer of {@code POST /internal/requests/summaries}: {@code {"summaries": {"<memberId>": [RequestSummary, ...]}}},
 * each list newest first; a member without requests may be missing or map to {@code []}.
 */
public record SummariesAnswer(Map<String, List<RequestSummary>> summaries) {
}
