package com.telemed.e2e.fuzz;

import java.util.Arrays;

/**
 * A value taken from the fixture when a call is written: the ids of real resources (so bad input
 * reaches the validation of things that exist), plus a few values that must be fresh on every call.
 * Templates name them {@code "$label"}; path templates {@code {label}}.
 */
public enum Slot {
    /** The fixture partner's member, who has {@link #REQUEST} and {@link #CONVERSATION}. */
    MEMBER("member"),
    /**
     * The fixture partner's pending request with one item, claimed by {@link #PRESCRIBER}: the
     * member's current prescriber (for-member finds {@link #CONVERSATION}).
     */
    REQUEST("request"),
    ITEM("item"),
    /** A drug the fixture partner may order, with SKUs {@link #SKU} and {@link #SKU2}. */
    DRUG("drug"),
    SKU("sku"),
    SKU2("sku2"),
    SKU_LABEL("skuLabel"),
    PRESCRIBER("prescriber"),
    /** The partner operator calls act on: never the fixture partner, so a rotated key or a changed setting breaks nothing. */
    OPS_PARTNER("partner"),
    /** The drug operator calls replace: not the one requests use. */
    OPS_DRUG("opsDrug"),
    /** A delivered webhook of {@link #OPS_PARTNER}. */
    DELIVERY("delivery"),
    /**
     * An event of the fixture partner (issue #42): its item.denied of a request the fixture denied. The partner has
     * no URL, so the event was not sent and its redelivery is refused ({@code 409 No webhook URL configured}).
     */
    EVENT("event"),
    /** The conversation of {@link #MEMBER} and {@link #PRESCRIBER}. */
    CONVERSATION("conversation"),
    /** A patient's message in {@link #CONVERSATION} (what a prescriber hands off). */
    MESSAGE("message"),
    /** A {@code nextCursor} messaging wrote for {@link #CONVERSATION}: the thread after its first message. */
    CURSOR("cursor"),
    /** The intake survey of {@link #DRUG} (questions q1 to q4, see {@link Fixture}): what partners and browsers read and submit. */
    SURVEY("survey"),
    /** The survey operator calls replace: it covers {@link #OPS_DRUG}, never the one partners submit. */
    OPS_SURVEY("opsSurvey"),
    /** An anonymous response of the fixture partner to {@link #SURVEY} that backs no request yet. */
    RESPONSE("response"),
    /** Nothing exists for this: a well-formed id of nothing. */
    APPOINTMENT("appointment"),
    /** An unused returning-member token of the fixture partner for {@link #MEMBER} and {@link #SURVEY}. */
    TOKEN("token"),
    /** The webhook receiver of the fixture. */
    WEBHOOK_URL("webhookUrl"),
    /** A new value on every call (idempotency keys, so a create is never a replay). */
    FRESH("fresh"),
    /** A new email address on every call (prescribers are one per email). */
    FRESH_EMAIL("freshEmail");

    private final String label;

    Slot(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    static Slot named(String label) {
        return Arrays.stream(values()).filter(slot -> slot.label.equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no slot " + label));
    }
}
