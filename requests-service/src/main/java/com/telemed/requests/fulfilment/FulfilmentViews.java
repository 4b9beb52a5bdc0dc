package com.telemed.requests.fulfilment;

/** What the fulfilment settings answer (operations-api.md, "Partner settings"). */
public final class FulfilmentViews {

    private FulfilmentViews() {
    }

    /** {@code {mode}}: the partner's stored mode, {@code automatic} when never set. */
    public record Mode(String mode) {
    }
}
