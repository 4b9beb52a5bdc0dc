package com.telemed.catalogue.drug;

import java.security.SecureRandom;

/** SKU identifiers: {@code sku_} + 24 characters of lowercase base32 ({@code a-z2-7}), 120 random bits. */
public final class SkuIds {

    public static final String PREFIX = "sku_";
    private static final int LENGTH = 24;
    private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    private SkuIds() {
    }

    public static String next() {
        StringBuilder id = new StringBuilder(PREFIX.length() + LENGTH).append(PREFIX);
        for (int i = 0; i < LENGTH; i++) {
            id.append(ALPHABET[RANDOM.nextInt(ALPHABET.length)]);
        }
        return id.toString();
    }
}
