package com.telemed.webhook.testwebhook;

import com.telemed.common.error.ApiException;
import com.telemed.common.json.Timestamps;
import com.telemed.common.partner.PartnerContext;
import com.telemed.webhook.delivery.DeliveryLog;
import com.telemed.webhook.events.EventsSchemas;
import com.telemed.webhook.events.EventsViews;
import com.telemed.webhook.intake.Envelopes;
import com.telemed.webhook.intake.Intake;
import com.telemed.webhook.settings.WebhookSettings;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code POST /v1/webhooks/test} (partner-extensions.md, Events): a {@code webhook.test} event,
 * {@code {"event":"webhook.test","timestamp":...}}, recorded and delivered exactly as a consumed
 * event is (intake's own transaction: the partner's next sequence number, a delivery signed by its
 * first attempt), so it shows in {@code GET /v1/events} with its delivery state.
 */
@Path("/v1/webhooks/test")
@Produces(MediaType.APPLICATION_JSON)
public class WebhookTestResource {

    public static final String EVENT = EventsSchemas.TEST_EVENT;

    private final Intake intake;
    private final PartnerContext partner;

    public WebhookTestResource(Intake intake, PartnerContext partner) {
        this.intake = intake;
        this.partner = partner;
    }

    @Tag(name = "Events")
    @Operation(operationId = "sendTestWebhook", summary = "Send a webhook.test event to the webhook URL, signed like any event")
    @APIResponse(responseCode = "202", description = "Accepted; sent in the background", content = @Content(mediaType = "application/json", schema = @Schema(ref = "EventAccepted")))
    @APIResponse(responseCode = "409", ref = "NoWebhookUrl")
    @POST
    public Response send() throws SQLException {
        String partnerId = partner.partnerId();
        WebhookSettings settings = WebhookSettings.findById(partnerId);
        if (settings == null || settings.url == null) {
            throw new ApiException(409, DeliveryLog.NO_URL_CONFIGURED);
        }
        String body = "{\"event\":\"" + EVENT + "\",\"timestamp\":\"" + Timestamps.format(Timestamps.now()) + "\"}";
        // Its own envelope id, never one of a consumed envelope (those are the publishers' UUIDs).
        String envelopeId = EVENT + ":" + UUID.randomUUID();
        // A URL cleared meanwhile records it as not sent, as intake does with any event.
        Intake.Result result = intake.record(List.of(new Envelopes.Webhook(envelopeId, partnerId, EVENT, body)), 0);
        return Response.accepted(new EventsViews.Accepted(result.ids().get(envelopeId))).build();
    }
}
