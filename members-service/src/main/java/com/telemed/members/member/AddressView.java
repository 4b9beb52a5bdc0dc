package com.telemed.members.member;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;

/** The Address object of partner-api.md; {@code street2} is null when not given. */
@JsonPropertyOrder({"street1", "street2", "city", "state", "zipCode"})
public record AddressView(String street1, String street2, String city, String state, String zipCode) {

    /** An address that passed {@link MemberSchemas#ADDRESS}. */
    static AddressView from(JsonNode node) {
        return new AddressView(node.get("street1").textValue(), MemberSchemas.textOrNull(node.get("street2")),
                node.get("city").textValue(), node.get("state").textValue(), node.get("zipCode").textValue());
    }
}
