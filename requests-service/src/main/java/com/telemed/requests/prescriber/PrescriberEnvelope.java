package com.telemed.requests.prescriber;

/** The response body {@code { prescriber }} of every prescriber endpoint. */
public record PrescriberEnvelope(PrescriberView prescriber) {

    static PrescriberEnvelope of(Prescriber prescriber) {
        return new PrescriberEnvelope(PrescriberView.of(prescriber));
    }
}
