package com.telemed.shapefixture.order;

import com.fasterxml.jackson.databind.JsonNode;

/** Clean: a record that holds JSON as the contract keeps it. */
public record OrderDocument(String id, JsonNode body) {
}
