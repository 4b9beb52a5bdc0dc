package com.telemed.web.console.request;

import com.telemed.web.console.session.ConsoleError;
import com.telemed.web.console.session.ConsoleSession;
import com.telemed.web.ops.OpsApi;
import com.telemed.web.ops.OpsClient;
import com.telemed.web.page.Pages;
import com.telemed.web.page.Refusal;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MultivaluedMap;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A request as the console shows it (interfaces.md B2 and C): requests-service's request, member and
 * history through the gateway, and the decisions a prescriber may take on each item still to decide.
 */
@ApplicationScoped
public class RequestPages {

    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);
    static final Set<String> UNDECIDED = Set.of("pending", "call_requested");
    static final Map<String, String> NOTICES = Map.of("approved", "Approved", "denied", "Denied", "consultation", "Consultation requested",
            "noted", "Note added");

    private final OpsClient ops;

    public RequestPages(OpsClient ops) {
        this.ops = ops;
    }

    /**
     * What the last post of one item's form left: the form ({@code approve} or {@code deny}; {@code note},
     * the request's note form, with no item), what was typed, and the gateway's issues by field ({@code ""}:
     * about none).
     */
    public record Failed(String itemId, String form, MultivaluedMap<String, String> typed, Map<String, String> errors) {
    }

    /** The page; {@code done} the address's notice, {@code failed} the refused form or null. */
    public RequestView view(ConsoleSession session, String id, String done, Failed failed) {
        OpsApi.RequestDetail detail = read(session, id);
        OpsApi.Reviewed request = detail.request();
        List<OpsApi.Item> items = request.lineItems() == null ? List.of() : request.lineItems();
        List<RequestView.ItemActions> actions = new ArrayList<>();
        if (session.prescriber()) {
            for (OpsApi.Item item : items) {
                if (UNDECIDED.contains(item.status())) {
                    actions.add(actions(request.id(), item, failed != null && item.itemId().equals(failed.itemId()) ? failed : null));
                }
            }
        }
        if (!actions.isEmpty()) {
            actions = PrescriptionRecords.withRecords(actions, items, drugs(session));
        }
        RequestView.Field note = null;
        if (session.prescriber()) {
            boolean noted = failed != null && failed.form().equals("note");
            note = new RequestView.Field("text", "note-text", "Note", noted ? DecisionForms.value(failed.typed(), "text") : "",
                    noted ? failed.errors().get("text") : null);
        }
        return new RequestView(request.id(), done == null ? null : NOTICES.get(done), failed == null ? null : failed.errors().get(""),
                member(detail.member()),
                nameAndState(request), request.partnerId(), request.status(), request.prescriberId() == null ? "-" : request.prescriberId(),
                request.caseNotes(), items.stream().map(RequestPages::itemRow).toList(),
                detail.history() == null ? List.of() : detail.history().stream().map(RequestPages::historyRow).toList(), actions,
                session.csrf(), note, "/console/requests/" + Pages.encode(request.id()) + "/notes");
    }

    /** The catalogue for the records' preview; empty when the gateway does not give it (the preview says so). */
    private List<OpsApi.Drug> drugs(ConsoleSession session) {
        try {
            return ops.drugs(session.token());
        } catch (Refusal | com.telemed.common.error.ApiException unread) {
            return List.of();
        }
    }

    private OpsApi.RequestDetail read(ConsoleSession session, String id) {
        try {
            OpsApi.RequestDetail detail = ops.request(session.token(), id);
            if (detail == null || detail.request() == null || detail.request().id() == null) {
                throw new ConsoleError(503, "Sorry, the service is unavailable", "Try again in a few minutes.");
            }
            return detail;
        } catch (Refusal refusal) {
            if (refusal.status() == 404 || refusal.status() == 400) {
                throw notFound();
            }
            throw refusal;
        }
    }

    static ConsoleError notFound() {
        return new ConsoleError(404, "Request not found", "There is no request with this id. Go back to the queue and open it from there.");
    }

    private static RequestView.ItemActions actions(String requestId, OpsApi.Item item, Failed failed) {
        boolean approve = failed != null && failed.form().equals("approve");
        boolean deny = failed != null && failed.form().equals("deny");
        List<RequestView.Field> fields = new ArrayList<>();
        DecisionForms.APPROVE_FIELDS.forEach((name, label) -> {
            String value = approve ? typed(failed, name) : "";
            fields.add(new RequestView.Field(name, name + "-" + item.itemId(), label, value, approve ? failed.errors().get(name) : null));
        });
        RequestView.Field reason = new RequestView.Field("reason", "reason-" + item.itemId(), "Reason",
                deny ? typed(failed, "reason") : "", deny ? failed.errors().get("reason") : null);
        return new RequestView.ItemActions(item.itemId(), drug(item),
                "/console/requests/" + Pages.encode(requestId) + "/items/" + Pages.encode(item.itemId()), fields, reason, List.of());
    }

    private static String typed(Failed failed, String name) {
        if (name.equals("dispenseAsWritten")) {
            return failed.typed().getFirst(name) != null ? "on" : "";
        }
        return DecisionForms.value(failed.typed(), name);
    }

    private static RequestView.MemberFacts member(OpsApi.Member member) {
        if (member == null) {
            return null;
        }
        List<String> address = new ArrayList<>();
        OpsApi.Address shipping = member.shippingAddress();
        if (shipping != null) {
            addLine(address, shipping.street1());
            addLine(address, shipping.street2());
            addLine(address, String.join(" ", List.of(nullToEmpty(shipping.city()) + (shipping.city() == null ? "" : ","),
                    nullToEmpty(shipping.state()), nullToEmpty(shipping.zipCode()))).strip());
        }
        return new RequestView.MemberFacts((nullToEmpty(member.firstName()) + " " + nullToEmpty(member.lastName())).strip(),
                nullToEmpty(member.dateOfBirth()), nullToEmpty(member.state()), address);
    }

    private static void addLine(List<String> lines, String line) {
        if (line != null && !line.isBlank() && !line.equals(",")) {
            lines.add(line);
        }
    }

    private static String nameAndState(OpsApi.Reviewed request) {
        return (nullToEmpty(request.memberName()) + (request.memberState() == null ? "" : " (" + request.memberState() + ")")).strip();
    }

    private static RequestView.ItemRow itemRow(OpsApi.Item item) {
        return new RequestView.ItemRow(item.itemId(), drug(item), nullToEmpty(item.dosage()),
                item.requestedSku() != null ? item.requestedSku() : nullToEmpty(item.requestedSkuId()), item.status());
    }

    private static RequestView.HistoryRow historyRow(OpsApi.History entry) {
        String event = entry.reason() == null ? entry.action() : entry.action() + ": " + entry.reason();
        return new RequestView.HistoryRow(time(entry.timestamp()), event, nullToEmpty(entry.by()));
    }

    private static String drug(OpsApi.Item item) {
        return item.drugName() != null ? item.drugName() : nullToEmpty(item.drugId());
    }

    private static String time(Instant at) {
        return at == null ? "" : TIME.format(at);
    }

    private static String nullToEmpty(String value) {
        return value == null ? "" : value;
    }
}
