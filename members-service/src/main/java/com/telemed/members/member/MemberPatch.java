package com.telemed.members.member;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The body of {@code PUT /v1/members/:id}, bound once it passed {@link MemberSchemas#UPDATE}:
 * only the fields sent change. A {@code null} component is a field not sent (the schema refuses
 * {@code null} for each of them); {@code phone} and {@code shippingAddress}, which {@code null}
 * clears, are {@link Clearable}. Addresses are replaced whole.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record MemberPatch(String firstName, String lastName, String email, Clearable<String> phone,
                          String dateOfBirth, String state, AddressView address,
                          Clearable<AddressView> shippingAddress, String status) {

    public MemberPatch {
        phone = Clearable.orAbsent(phone);
        shippingAddress = Clearable.orAbsent(shippingAddress);
    }
}
