package com.telemed.web.console.request;

import java.util.List;

/**
 * A request's page ({@code console-request.html}): the member, the case notes, the items, the history,
 * and for a prescriber the decision forms of each item still to decide ({@code pending} or
 * {@code call_requested}), one of them with what was typed and the gateway's issues after a refusal.
 *
 * @param notice what the last action did ({@code Approved}, {@code Denied}, {@code Consultation requested}), or null
 * @param error the gateway's refusal of the last action that was about no field (not pending any more ...), or null
 * @param note a prescriber's note form's field ({@code text}), or null for anyone else
 */
public record RequestView(String id, String notice, String error, MemberFacts member, String patient, String partnerId, String status,
                          String claimedBy, String caseNotes, List<ItemRow> items, List<HistoryRow> history,
                          List<ItemActions> actions, String csrf, Field note, String noteAction) {

    /** The member as members-service has them; null when it no longer does. */
    public record MemberFacts(String name, String dateOfBirth, String state, List<String> shippingAddress) {
    }

    public record ItemRow(String itemId, String drug, String dosage, String requestedSku, String status) {
    }

    public record HistoryRow(String time, String event, String by) {
    }

    /**
     * An item's three forms; {@code fields} the approve form's, {@code reason} the deny form's.
     */
    public record ItemActions(String itemId, String drug, String base, List<Field> fields, Field reason, List<Fact> record) {

        public ItemActions withRecord(List<Fact> facts) {
            return new ItemActions(itemId, drug, base, fields, reason, facts);
        }

        public String sectionId() {
            return "item-" + itemId;
        }

        public String approveAction() {
            return base + "/approve";
        }

        public String denyAction() {
            return base + "/deny";
        }

        public String consultationAction() {
            return base + "/request-consultation";
        }
    }

    /** One line of the prescription record as signing will freeze it (operations-api.md, "prescription" body). */
    public record Fact(String term, String value) {
    }

    /**
     * A field of a decision form: {@code name} as posted, {@code id} unique on the page
     * ({@code <name>-<itemId>}), its label, what was typed, and the gateway's issue or null.
     */
    public record Field(String name, String id, String label, String value, String error) {

        public String errorId() {
            return "error-" + name;
        }

        public boolean checkbox() {
            return name.equals("dispenseAsWritten");
        }

        public boolean textarea() {
            return name.equals("directions") || name.equals("reason") || name.equals("text");
        }

        public boolean numeric() {
            return name.equals("quantity") || name.equals("daysSupply") || name.equals("refills");
        }

        public boolean checked() {
            return value != null && !value.isEmpty();
        }
    }
}
