package com.telemed.requests.request;

import java.util.List;

/** {@code POST /v1/requests/:id/cancel}, bound after {@link RequestSchemas#CANCEL}: absent fields are null. */
public record CancelInput(String reason, List<String> itemIds) {
}
