package com.telemed.requests.pharmacy;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The sandbox pharmacy every environment has (operations-api.md, "Pharmacy integration"): accepts
 * every order and assigns an {@code ord_...} reference; nothing real receives it.
 */
public final class SandboxPharmacy implements PharmacyAdapter {

    private static final SecureRandom RANDOM = new SecureRandom();

    @Override
    public PharmacyAnswer transmit(PharmacyOrder order) {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        return new PharmacyAnswer.Accepted("ord_" + HexFormat.of().formatHex(bytes));
    }
}
