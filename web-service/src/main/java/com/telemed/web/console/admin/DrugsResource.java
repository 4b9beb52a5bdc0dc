package com.telemed.web.console.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.access.Principal.Role;
import com.telemed.web.console.session.ConsoleSession;
import com.telemed.web.console.session.SignedIn;
import com.telemed.web.ops.OpsApi;
import com.telemed.web.ops.OpsClient;
import com.telemed.web.page.Pages;
import com.telemed.web.page.Refusal;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The catalogue (interfaces.md E2; operations-api.md, "Catalogue"): every drug ({@code GET /ops/v1/drugs}), and
 * a drug's form for {@code PUT /ops/v1/drugs/{id}} (which creates or replaces it). What the form does not edit
 * is kept: the drug's {@code defaultAdCopy} and each kept SKU's {@code packageSize} and {@code concentration}
 * are sent back as the catalogue has them (read again just before the {@code PUT}). Administrators only: the
 * form token, then the role, before anything is asked of the gateway.
 */
@Path("/console/drugs")
@Produces(MediaType.TEXT_HTML)
public class DrugsResource {

    /** The empty SKU rows the form offers for new SKUs. */
    static final int NEW_ROWS = 3;
    /** The SKU rows a posted form is read for at most (the API takes 100 SKUs). */
    static final int ROWS_MAX = 110;

    private final OpsClient ops;
    private final SignedIn signedIn;
    private final Template drugs;
    private final Template drug;

    public DrugsResource(OpsClient ops, SignedIn signedIn, @Location("console-drugs.html") Template drugs,
                         @Location("console-drug.html") Template drug) {
        this.ops = ops;
        this.signedIn = signedIn;
        this.drugs = drugs;
        this.drug = drug;
    }

    /** The catalogue; the open form's {@code drugId}: {@code 303} to that drug's form. */
    @GET
    public Response page(@QueryParam("drugId") String drugId) {
        ConsoleSession session = signedIn.require(Role.ADMIN);
        String open = AdminForms.blankToNull(drugId);
        if (open != null) {
            return Pages.seeOther("/console/drugs/" + Pages.encode(open));
        }
        List<DrugsView.Row> rows = ops.drugs(session.token()).stream().map(DrugsResource::row).toList();
        return Pages.html(200, drugs.data("page", new DrugsView(rows)).data("nav", signedIn.nav()));
    }

    /** The drug's form, filled from the catalogue; an id the catalogue does not have: the empty form that creates it. */
    @GET
    @Path("/{id}")
    public Response form(@PathParam("id") String id, @QueryParam("done") String done) {
        ConsoleSession session = signedIn.require(Role.ADMIN);
        OpsApi.Drug found = find(ops.drugs(session.token()), id);
        String notice = "saved".equals(done) && found != null ? "Drug saved" : null;
        DrugFormView view;
        if (found == null) {
            view = new DrugFormView(id, false, null, null, "", "", "", "", "", rows(List.of()), Map.of(), session.csrf());
        } else {
            view = new DrugFormView(id, true, notice, null, AdminForms.nullToEmpty(found.name()), AdminForms.nullToEmpty(found.description()),
                    AdminForms.nullToEmpty(found.classification()), found.pharmacy() == null ? "" : AdminForms.nullToEmpty(found.pharmacy().id()),
                    found.pharmacy() == null ? "" : AdminForms.nullToEmpty(found.pharmacy().method()),
                    rows(found.skus() == null ? List.of() : found.skus()), Map.of(), session.csrf());
        }
        return render(200, view);
    }

    /**
     * {@code PUT /ops/v1/drugs/{id}} with the form: the kept SKUs (their ids) and the new rows with a label, in
     * row order; the gateway's own checks answer ({@code 400}: the form again with the issues next to the fields
     * and everything typed kept); success: {@code 303} to the form with {@code ?done=saved}.
     */
    @POST
    @Path("/{id}")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response save(@PathParam("id") String id, MultivaluedMap<String, String> form) {
        signedIn.checkForm(form == null ? null : form.getFirst("csrf"));
        ConsoleSession session = signedIn.require(Role.ADMIN);
        OpsApi.Drug current = find(ops.drugs(session.token()), id);
        List<DrugFormView.SkuRow> typedRows = typedRows(form);
        List<Integer> sent = new ArrayList<>();
        ObjectNode body = body(form, current, typedRows, sent);
        try {
            ops.putDrug(session.token(), id, body);
        } catch (Refusal refusal) {
            if (refusal.status() != 400) {
                throw refusal;
            }
            Map<String, String> errors = errors(refusal, sent);
            String error = errors.remove("");
            if (error == null && errors.isEmpty()) {
                error = AdminForms.NOT_DONE;
            }
            List<DrugFormView.SkuRow> shown = typedRows.stream()
                    .map(row -> new DrugFormView.SkuRow(row.n(), row.id(), row.label(), row.active(), errors.get("sku-label-" + row.n())))
                    .toList();
            DrugFormView view = new DrugFormView(id, current != null, null, error, value(form, "name"), value(form, "description"),
                    value(form, "classification"), value(form, "pharmacyId"), value(form, "pharmacyMethod"), shown, errors, session.csrf());
            return render(400, view);
        }
        return Pages.seeOther("/console/drugs/" + Pages.encode(id) + "?done=saved");
    }

    private static ObjectNode body(MultivaluedMap<String, String> form, OpsApi.Drug current, List<DrugFormView.SkuRow> rows,
                                   List<Integer> sent) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode body = json.objectNode();
        body.put("name", value(form, "name"));
        String description = value(form, "description");
        if (description.isBlank()) {
            body.putNull("description");
        } else {
            body.put("description", description);
        }
        if (current != null && current.defaultAdCopy() != null) {
            body.put("defaultAdCopy", current.defaultAdCopy());
        }
        body.put("classification", value(form, "classification"));
        Map<String, OpsApi.Sku> kept = current == null || current.skus() == null ? Map.of()
                : current.skus().stream().filter(sku -> sku.id() != null)
                        .collect(Collectors.toMap(OpsApi.Sku::id, sku -> sku, (first, second) -> first));
        ArrayNode skus = body.putArray("skus");
        for (DrugFormView.SkuRow row : rows) {
            if (row.id().isEmpty() && row.label().isBlank()) {
                continue;
            }
            ObjectNode sku = skus.addObject();
            if (!row.id().isEmpty()) {
                sku.put("id", row.id());
            }
            sku.put("label", row.label());
            OpsApi.Sku was = kept.get(row.id());
            if (was != null && was.packageSize() != null && !was.packageSize().isNull()) {
                sku.set("packageSize", was.packageSize());
            }
            if (was != null && was.concentration() != null && !was.concentration().isNull()) {
                sku.set("concentration", was.concentration());
            }
            sku.put("active", row.active());
            sent.add(row.n());
        }
        ObjectNode pharmacy = body.putObject("pharmacy");
        pharmacy.put("id", value(form, "pharmacyId"));
        pharmacy.put("method", value(form, "pharmacyMethod"));
        return body;
    }

    /** The issues by field: {@code ["pharmacy","id"]} at {@code pharmacyId}, {@code ["skus", i, ...]} at the row sent as SKU {@code i}. */
    static Map<String, String> errors(Refusal refusal, List<Integer> sent) {
        List<JsonNode> issues = refusal.issues();
        Map<String, String> errors = new LinkedHashMap<>();
        if (issues.isEmpty()) {
            errors.put("", refusal.error() == null ? AdminForms.NOT_DONE : refusal.error());
            return errors;
        }
        for (JsonNode issue : issues) {
            JsonNode path = issue.path("path");
            String first = path.path(0).asText("");
            String field = switch (first) {
                case "name", "description", "classification" -> path.size() == 1 ? first : "";
                case "pharmacy" -> "method".equals(path.path(1).asText("")) ? "pharmacyMethod" : "pharmacyId";
                case "skus" -> {
                    JsonNode index = path.path(1);
                    yield index.isInt() && index.intValue() >= 0 && index.intValue() < sent.size() ? "sku-label-" + sent.get(index.intValue()) : "";
                }
                default -> "";
            };
            String message = issue.path("message").asText("");
            errors.putIfAbsent(field, message.isEmpty() ? "Check this value" : message);
        }
        return errors;
    }

    /** The catalogue's SKUs, then {@value #NEW_ROWS} empty rows (new SKUs are active unless unticked). */
    private static List<DrugFormView.SkuRow> rows(List<OpsApi.Sku> skus) {
        List<DrugFormView.SkuRow> rows = new ArrayList<>();
        for (OpsApi.Sku sku : skus) {
            rows.add(new DrugFormView.SkuRow(rows.size(), AdminForms.nullToEmpty(sku.id()), AdminForms.nullToEmpty(sku.label()), sku.active(), null));
        }
        for (int i = 0; i < NEW_ROWS; i++) {
            rows.add(new DrugFormView.SkuRow(rows.size(), "", "", true, null));
        }
        return rows;
    }

    /** The SKU rows of a posted form, by row number: a row is there when its label or its id field is. */
    private static List<DrugFormView.SkuRow> typedRows(MultivaluedMap<String, String> form) {
        List<DrugFormView.SkuRow> rows = new ArrayList<>();
        for (int n = 0; n < ROWS_MAX; n++) {
            if (form == null || (!form.containsKey("sku-label-" + n) && !form.containsKey("sku-id-" + n))) {
                continue;
            }
            rows.add(new DrugFormView.SkuRow(n, value(form, "sku-id-" + n).strip(), value(form, "sku-label-" + n),
                    form.containsKey("sku-active-" + n), null));
        }
        return rows;
    }

    private static OpsApi.Drug find(List<OpsApi.Drug> all, String id) {
        return all.stream().filter(drug -> id.equals(drug.id())).findFirst().orElse(null);
    }

    private static DrugsView.Row row(OpsApi.Drug drug) {
        String id = AdminForms.nullToEmpty(drug.id());
        String skus = drug.skus() == null ? "" : drug.skus().stream()
                .map(sku -> AdminForms.nullToEmpty(sku.label()) + " (" + AdminForms.nullToEmpty(sku.id()) + ", " + (sku.active() ? "active" : "inactive") + ")")
                .collect(Collectors.joining("; "));
        String pharmacy = drug.pharmacy() == null ? "-"
                : AdminForms.nullToEmpty(drug.pharmacy().id()) + " / " + AdminForms.nullToEmpty(drug.pharmacy().method());
        return new DrugsView.Row(id, AdminForms.nullToEmpty(drug.name()), AdminForms.nullToEmpty(drug.classification()), skus.isEmpty() ? "-" : skus,
                pharmacy, "/console/drugs/" + Pages.encode(id));
    }

    private static String value(MultivaluedMap<String, String> form, String field) {
        String value = form == null ? null : form.getFirst(field);
        return value == null ? "" : value;
    }

    private Response render(int status, DrugFormView view) {
        return Pages.html(status, drug.data("page", view).data("nav", signedIn.nav()));
    }
}
