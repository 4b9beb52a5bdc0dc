package com.telemed.billing.settings;

import static com.telemed.common.validation.Schemas.bool;
import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.json.Timestamps;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.common.validation.StringSchema;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.math.BigDecimal;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code PUT}/{@code GET /ops/v1/partners/:id/billing} (operations-api.md, "Partner settings"):
 * {@code {enabled, cycle: "monthly" | "weekly", weekday (1 Monday .. 7 Sunday, weekly only),
 * ratePerMember}}, answered with what is stored. A weekly cycle needs its weekday and a monthly one
 * takes none. Never set: {@code 404 Billing settings not found}.
 */
@Path("/ops/v1/partners/{partnerId}/billing")
@Produces(MediaType.APPLICATION_JSON)
public class BillingSettingsResource {

    static final String NOT_FOUND = "Billing settings not found";
    static final String WEEKDAY_REQUIRED = "weekday is required for a weekly cycle";
    static final String WEEKDAY_MONTHLY = "weekday is only for a weekly cycle";
    /** More than any contracted rate; six decimals, as every amount the platform stores. */
    static final int RATE_MAX = 1_000_000;

    /** The partner id an operator path names (the gateway's ids fit; the owners refuse longer ones). */
    public static final StringSchema PARTNER_ID = string().min(1).max(64);
    static final ObjectSchema BODY = object()
            .field("enabled", bool())
            .field("cycle", enumOf(BillingSettings.MONTHLY, BillingSettings.WEEKLY))
            .field("weekday", number().integer().min(1).max(7).optional().nullable())
            .field("ratePerMember", number().min(0).max(RATE_MAX).decimals(6))
            .rule((body, path, issues) -> {
                JsonNode cycle = body.get("cycle");
                boolean weekday = body.hasNonNull("weekday");
                if (cycle != null && BillingSettings.WEEKLY.equals(cycle.asText()) && !weekday) {
                    issues.custom(Issues.append(path, "weekday"), WEEKDAY_REQUIRED);
                } else if (cycle != null && BillingSettings.MONTHLY.equals(cycle.asText()) && weekday) {
                    issues.custom(Issues.append(path, "weekday"), WEEKDAY_MONTHLY);
                }
            });

    public record SettingsInput(boolean enabled, String cycle, Integer weekday, BigDecimal ratePerMember) {
    }

    private final AuditTrail audit;

    public BillingSettingsResource(AuditTrail audit) {
        this.audit = audit;
    }

    @JsonPropertyOrder({"enabled", "cycle", "weekday", "ratePerMember"})
    public record SettingsView(boolean enabled, String cycle, Integer weekday, BigDecimal ratePerMember) {
        static SettingsView of(BillingSettings settings) {
            return new SettingsView(settings.enabled, settings.cycle, settings.weekday, settings.ratePerMember.stripTrailingZeros());
        }
    }

    @Tag(name = "Billing settings")
    @Operation(operationId = "putBillingSettings")
    @Parameter(name = "partnerId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "BillingSettings")))
    @APIResponse(responseCode = "200", description = "The settings", content = @Content(mediaType = "application/json", schema = @Schema(ref = "BillingSettings")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @Transactional
    public SettingsView put(@PathParam("partnerId") String partnerId, JsonNode body) {
        Issues issues = new Issues();
        PARTNER_ID.validate(TextNode.valueOf(partnerId), List.of("partnerId"), issues);
        BODY.validate(body, List.of(), issues);
        issues.throwIfAny();
        SettingsInput input = Binding.bindValidated(body, SettingsInput.class);
        BillingSettings.set(partnerId, input.enabled(), input.cycle(), input.weekday(), input.ratePerMember(), Timestamps.now());
        audit.record("billing_settings.update", "billing_settings", partnerId, partnerId);
        Panache.getEntityManager().clear();
        return SettingsView.of(BillingSettings.findById(partnerId));
    }

    @Tag(name = "Billing settings")
    @Operation(operationId = "getBillingSettings")
    @Parameter(name = "partnerId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The settings", content = @Content(mediaType = "application/json", schema = @Schema(ref = "BillingSettings")))
    @APIResponse(responseCode = "404", ref = "NotFound")
    @GET
    @Transactional
    public SettingsView get(@PathParam("partnerId") String partnerId) {
        BillingSettings settings = BillingSettings.findById(partnerId);
        if (settings == null) {
            throw ApiException.notFound(NOT_FOUND);
        }
        return SettingsView.of(settings);
    }
}
