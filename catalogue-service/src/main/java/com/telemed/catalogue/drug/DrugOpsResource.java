package com.telemed.catalogue.drug;

import static com.telemed.common.validation.Schemas.array;
import static com.telemed.common.validation.Schemas.bool;
import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.NumberSchema;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.common.validation.StringSchema;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Catalogue management for operators (operations-api.md, Catalogue). The edge has checked the operator key. */
@Path("/ops/v1/drugs")
@Produces(MediaType.APPLICATION_JSON)
public class DrugOpsResource {

    public static final String CLASSIFICATION_NON_CONTROLLED = "non-controlled";
    public static final String CLASSIFICATION_CONTROLLED = "controlled";
    static final String POSITIVE = "Number must be greater than 0";
    static final String DUPLICATE_SKU_ID = "Duplicate SKU id";
    static final String DUPLICATE_SKU_LABEL = "Duplicate SKU label";

    /*
     * Bounds (README, "Input bounds"): what the columns hold and requests-service's arithmetic
     * (volumeMl = dose / concentration) survives.
     */
    static final int NAME_MAX = 200;
    static final int TEXT_MAX = 10_000;
    /** A SKU label is also the legacy dosage label partners send (requests-service bounds it to 255). */
    static final int LABEL_MAX = 255;
    /** SKU ids are 28 characters; a longer one is never one of the drug's. */
    static final int SKU_ID_MAX = 64;
    static final int UNIT_MAX = 50;
    static final int PHARMACY_ID_MAX = 128;
    static final int SKUS_MAX = 100;
    /** packageSize and concentration.value: numeric columns, copied into every prescription record. */
    static final int AMOUNT_MAX = 1_000_000;
    static final int AMOUNT_DECIMALS = 6;

    private static final StringSchema DRUG_ID = DrugIds.schema();

    private static final ObjectSchema SKU = object()
            .field("id", string().min(1).max(SKU_ID_MAX).nullable().optional())
            .field("label", string().min(1).max(LABEL_MAX))
            .field("packageSize", positive().nullable().optional())
            .field("concentration", object()
                    .field("value", positive())
                    .field("activeUnit", string().min(1).max(UNIT_MAX))
                    .field("baseUnit", string().min(1).max(UNIT_MAX))
                    .nullable().optional())
            .field("active", bool());

    static final ObjectSchema BODY = object()
            .field("name", string().min(1).max(NAME_MAX))
            .field("description", string().max(TEXT_MAX).nullable().optional())
            .field("defaultAdCopy", string().max(TEXT_MAX).nullable().optional())
            .field("classification", enumOf(CLASSIFICATION_NON_CONTROLLED, CLASSIFICATION_CONTROLLED))
            .field("skus", array(SKU).max(SKUS_MAX))
            .field("pharmacy", object()
                    .field("id", string().min(1).max(PHARMACY_ID_MAX))
                    .field("method", enumOf("integration_a", "integration_b", "email", "none")))
            .rule((body, path, issues) -> {
                // Two entries for one SKU, or two SKUs with one label (a legacy dosage label would be ambiguous).
                Set<String> ids = new HashSet<>();
                Set<String> labels = new HashSet<>();
                JsonNode skus = body.get("skus");
                for (int i = 0; i < skus.size(); i++) {
                    JsonNode sku = skus.get(i);
                    if (sku.hasNonNull("id") && !ids.add(sku.get("id").textValue())) {
                        issues.custom(Issues.append(path, "skus", i, "id"), DUPLICATE_SKU_ID);
                    }
                    if (!labels.add(sku.get("label").textValue())) {
                        issues.custom(Issues.append(path, "skus", i, "label"), DUPLICATE_SKU_LABEL);
                    }
                }
            });

    public record DrugEnvelope(OpsDrugView drug) {
    }

    public record DrugsEnvelope(List<OpsDrugView> drugs) {
    }

    private final DrugService drugs;
    private final ObjectMapper mapper;

    public DrugOpsResource(DrugService drugs, ObjectMapper mapper) {
        this.drugs = drugs;
        this.mapper = mapper;
    }

    @Tag(name = "Catalogue")
    @Operation(operationId = "putDrug", summary = "Create or replace a drug (a SKU without id gets a new sku_ id)")
    @Parameter(name = "drugId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING, maxLength = 128))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "DrugInput")))
    @APIResponse(responseCode = "200", description = "The drug", content = @Content(mediaType = "application/json", schema = @Schema(ref = "PutDrug200")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @PUT
    @Path("/{drugId}")
    @Consumes(MediaType.APPLICATION_JSON)
    public DrugEnvelope put(@PathParam("drugId") String drugId, JsonNode body) throws JsonProcessingException {
        Issues issues = new Issues();
        DRUG_ID.validate(TextNode.valueOf(drugId), List.of("drugId"), issues);
        BODY.validate(body, List.of(), issues);
        issues.throwIfAny();
        DrugInput input = mapper.treeToValue(body, DrugInput.class);
        return new DrugEnvelope(OpsDrugView.of(drugs.replace(drugId, input)));
    }

    @Tag(name = "Catalogue")
    @Operation(operationId = "listOpsDrugs", summary = "Every drug, with its pharmacy")
    @APIResponse(responseCode = "200", description = "The catalogue", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ListOpsDrugs200")))
    @GET
    public DrugsEnvelope list() {
        return new DrugsEnvelope(drugs.all().stream().map(OpsDrugView::of).toList());
    }

    /** Greater than 0 (a {@code custom} issue), at most 1,000,000, at most six decimals. */
    private static NumberSchema positive() {
        return number().max(AMOUNT_MAX).decimals(AMOUNT_DECIMALS)
                .refine(value -> value.decimalValue().compareTo(BigDecimal.ZERO) > 0, POSITIVE);
    }
}
