package com.telemed.catalogue.drug;

/** The pharmacy that fills a drug: {@code { id, method }}. Operators and services only, never {@code /v1}. */
public record Pharmacy(String id, String method) {

    public static Pharmacy of(Drug drug) {
        return new Pharmacy(drug.pharmacyId, drug.pharmacyMethod);
    }
}
