package com.telemed.requests.prescriber;

/** A validated {@code POST /ops/v1/prescribers} body. */
public record NewPrescriber(String name, String email) {
}
