package com.telemed.members.member;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The Address object of partner-api.md, as answered and as bound from a body that passed
 * {@link MemberSchemas#ADDRESS}; {@code street2} is null when not given.
 */
@JsonPropertyOrder({"street1", "street2", "city", "state", "zipCode"})
@JsonIgnoreProperties(ignoreUnknown = true)
public record AddressView(String street1, String street2, String city, String state, String zipCode) {
}
