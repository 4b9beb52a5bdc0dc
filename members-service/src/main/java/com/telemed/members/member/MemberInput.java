package com.telemed.members.member;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The body of {@code POST /v1/members}, and the inline member of find-or-create, bound once it
 * passed {@link MemberSchemas#CREATE}: {@code firstName}, {@code lastName}, {@code email},
 * {@code dateOfBirth}, {@code state} and {@code address} are present; {@code gender} is
 * {@code null} when not sent. Anything else sent ({@code status}, unknown keys) is not bound.
 *
 * <p>{@code phone} and {@code shippingAddress} keep whether they were sent at all: a new member
 * has none either way, but a reused inline member keeps its own when they are absent and clears
 * them when they are {@code null} ({@link #inlineUpdate()}).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record MemberInput(String firstName, String lastName, String email, Clearable<String> phone,
                          String dateOfBirth, String state, String gender, AddressView address,
                          Clearable<AddressView> shippingAddress) {

    public MemberInput {
        phone = Clearable.orAbsent(phone);
        shippingAddress = Clearable.orAbsent(shippingAddress);
    }

    /**
     * What the inline member changes on the member it reuses, under the {@code PUT} rules: its
     * fields but {@code gender} (not a {@code PUT} field; the service sets it apart) and never a
     * status (not an inline field).
     */
    public MemberPatch inlineUpdate() {
        return new MemberPatch(firstName, lastName, email, phone, dateOfBirth, state, address, shippingAddress, null);
    }
}
