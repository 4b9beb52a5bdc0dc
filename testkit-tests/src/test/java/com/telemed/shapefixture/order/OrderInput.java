package com.telemed.shapefixture.order;

/** Clean: the record a body binds to. */
public record OrderInput(String drugId) {
}
