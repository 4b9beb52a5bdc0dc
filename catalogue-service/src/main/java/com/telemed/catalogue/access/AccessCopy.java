package com.telemed.catalogue.access;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * One partner's drug access as another service keeps a copy of it ({@code data} of
 * {@code catalogue.access_changed}, and an entry of the snapshot): {@code drugIds} null when the partner
 * sees the full catalogue, else the drugs it is restricted to (possibly none), in their stored order.
 */
@JsonPropertyOrder({"partnerId", "version", "drugIds"})
public record AccessCopy(String partnerId, long version, @JsonInclude(JsonInclude.Include.ALWAYS) List<String> drugIds) {
}
