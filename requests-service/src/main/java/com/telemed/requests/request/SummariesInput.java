package com.telemed.requests.request;

import java.util.List;

/**
 * {@code POST /internal/requests/summaries}, bound after {@link InternalRequestResource#SUMMARIES};
 * {@code limitPerMember} null when absent.
 */
public record SummariesInput(String partnerId, List<String> memberIds, Integer limitPerMember) {
}
