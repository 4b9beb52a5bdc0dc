package com.telemed.web.ops;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;
import org.jboss.resteasy.reactive.client.api.ClientMultipartForm;

/**
 * The gateway's {@code /ops} API as the console uses it, as the signed-in person ({@code Authorization:
 * Bearer <session token>}): the sign-in and the session (gateway), the review queue, a request and its
 * decisions (requests-service, through the gateway), the audit log (gateway), the prescribers' conversations
 * (messaging-service, through the gateway). Used only through
 * {@link OpsClient}. Answers are read leniently: fields the console does not show are ignored.
 */
@Path("/ops/v1")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface OpsApi {

    @POST
    @Path("/sessions")
    SessionToken signIn(Credentials body);

    @GET
    @Path("/sessions/current")
    Current current(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer);

    @DELETE
    @Path("/sessions/current")
    void signOut(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer);

    @GET
    @Path("/review/queue")
    Queue queue(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @QueryParam("drugId") String drugId,
                @QueryParam("partnerId") String partnerId, @QueryParam("prescriberId") String prescriberId);

    @GET
    @Path("/requests/{id}")
    RequestDetail request(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String id);

    @POST
    @Path("/requests/{id}/claim")
    JsonNode claim(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String id, JsonNode body);

    @POST
    @Path("/requests/{id}/items/{itemId}/{decision}")
    JsonNode decide(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String id,
                    @PathParam("itemId") String itemId, @PathParam("decision") String decision, JsonNode body);

    @GET
    @Path("/audit")
    AuditPage audit(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @QueryParam("actor") String actor,
                    @QueryParam("action") String action, @QueryParam("targetId") String targetId,
                    @QueryParam("after") String after);

    // Administration (console.admin): partners and their keys, local accounts, webhook deliveries.

    @POST
    @Path("/partners")
    PartnerCreated createPartner(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, JsonNode body);

    @GET
    @Path("/partners/{id}")
    PartnerEnvelope partner(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String id);

    @POST
    @Path("/partners/{id}/api-key/rotate")
    ApiKey rotateApiKey(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String id);

    @GET
    @Path("/accounts")
    Accounts accounts(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer);

    @POST
    @Path("/accounts")
    JsonNode createAccount(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, JsonNode body);

    @DELETE
    @Path("/accounts/{id}")
    void deleteAccount(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String id);

    @GET
    @Path("/partners/{id}/webhook/deliveries")
    Deliveries deliveries(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String partnerId,
                          @QueryParam("event") String event);

    @POST
    @Path("/partners/{id}/webhook/deliveries/{deliveryId}/redeliver")
    JsonNode redeliver(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String partnerId,
                       @PathParam("deliveryId") String deliveryId);

    /** A prescriber's appointments (interfaces.md D2): the prescriber in person's own, from now for 31 days. */
    @GET
    @Path("/appointments")
    AppointmentList appointments(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer);

    @POST
    @Path("/appointments/{id}/outcome")
    JsonNode outcome(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String id, JsonNode body);

    @GET
    @Path("/prescribers/{id}/availability")
    AvailabilityEnvelope availability(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String prescriberId);

    @PUT
    @Path("/prescribers/{id}/availability")
    AvailabilityEnvelope putAvailability(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String prescriberId,
                                         JsonNode body);

    @GET
    @Path("/conversations")
    ConversationPage conversations(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @QueryParam("unread") String unread,
                                   @QueryParam("limit") Integer limit, @QueryParam("after") String after);

    @GET
    @Path("/conversations/{id}/messages")
    Thread thread(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String id, @QueryParam("limit") Integer limit,
                  @QueryParam("cursor") String cursor);

    @POST
    @Path("/conversations/{id}/prescriber-read")
    JsonNode markRead(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String id, JsonNode body);

    @POST
    @Path("/conversations/{id}/prescriber-messages")
    JsonNode reply(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String id, JsonNode body);

    @POST
    @Path("/conversations/{id}/prescriber-attachments")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    JsonNode attach(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String id, ClientMultipartForm file);

    @POST
    @Path("/conversations/{id}/messages/{messageId}/handoff")
    JsonNode handOff(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String id,
                     @PathParam("messageId") String messageId, JsonNode body);

    // Catalogue and people (console.admin): drugs, intake surveys, prescribers.

    @GET
    @Path("/drugs")
    Drugs drugs(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer);

    @PUT
    @Path("/drugs/{drugId}")
    JsonNode putDrug(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("drugId") String drugId, JsonNode body);

    @GET
    @Path("/surveys/{surveyId}")
    SurveyEnvelope survey(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("surveyId") String surveyId);

    @PUT
    @Path("/surveys/{surveyId}")
    SurveyEnvelope putSurvey(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("surveyId") String surveyId, JsonNode body);

    @POST
    @Path("/prescribers")
    PrescriberEnvelope createPrescriber(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, JsonNode body);

    @GET
    @Path("/prescribers/{id}")
    PrescriberEnvelope prescriber(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String id);

    // Operations (console.operations): pharmacy credentials, failed transmissions; a prescriber's notes.

    @POST
    @Path("/pharmacies/{pharmacyId}/credentials")
    PharmacyKey issuePharmacyKey(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("pharmacyId") String pharmacyId);

    @DELETE
    @Path("/pharmacies/{pharmacyId}/credentials/{credentialId}")
    void revokePharmacyKey(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("pharmacyId") String pharmacyId,
                           @PathParam("credentialId") String credentialId);

    @GET
    @Path("/pharmacy/failed-transmissions")
    FailedTransmissions failedTransmissions(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @QueryParam("limit") Integer limit);

    @POST
    @Path("/requests/{id}/items/{itemId}/send-to-pharmacy")
    SendOutcome sendToPharmacy(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String id,
                               @PathParam("itemId") String itemId);

    @POST
    @Path("/requests/{id}/notes")
    JsonNode addNote(@HeaderParam(HttpHeaders.AUTHORIZATION) String bearer, @PathParam("id") String id, JsonNode body);

    record Credentials(String email, String password) {
    }

    record SessionToken(String token, Instant expiresAt) {
    }

    /** {@code GET /ops/v1/sessions/current} (interfaces.md A). */
    record Current(Account account, Instant expiresAt) {
    }

    record Account(String id, String email, String name, List<String> roles, String prescriberId) {
    }

    record Queue(List<Reviewed> requests) {
    }

    /** requests-service's {@code ReviewViews.Reviewed}, as far as the console shows it. */
    record Reviewed(String id, String partnerId, String memberId, String memberName, String memberState, String status,
                    String prescriberId, String caseNotes, List<Item> lineItems, Instant createdAt) {
    }

    record Item(String itemId, String drugId, String drugName, String dosage, String requestedSkuId, String requestedSku,
                String selectedSkuId, String status, String prescriberId) {
    }

    /** {@code GET /ops/v1/requests/{id}} (interfaces.md B2). */
    record RequestDetail(Reviewed request, Member member, List<History> history) {
    }

    record Member(String id, String firstName, String lastName, String dateOfBirth, String state, Address shippingAddress) {
    }

    record Address(String street1, String street2, String city, String state, String zipCode) {
    }

    record History(String action, Instant timestamp, String by, String reason) {
    }

    record AuditPage(List<AuditEntry> entries, String nextCursor) {
    }

    record AuditEntry(String id, Instant at, Actor actor, String action, String targetType, String targetId, String partnerId) {
    }

    record Actor(String type, String id, String name) {
    }

    /** {@code POST /ops/v1/partners}: the partner and its two keys, shown once (operations-api.md, "Partners and credentials"). */
    record PartnerCreated(Partner partner, String apiKey, String publishableKey) {
    }

    record PartnerEnvelope(Partner partner) {
    }

    record Partner(String id, String name, Instant createdAt) {
    }

    /** {@code POST /ops/v1/partners/:id/api-key/rotate}: the new key, shown once. */
    record ApiKey(String apiKey) {
    }

    /** {@code GET /ops/v1/accounts}: every live account, oldest first. */
    record Accounts(List<Account> accounts) {
    }

    /** {@code GET /ops/v1/partners/:id/webhook/deliveries}: newest first (operations-api.md, "Webhook deliveries"). */
    record Deliveries(List<Delivery> deliveries) {
    }

    record Delivery(String id, String event, String status, List<Attempt> attempts, Instant createdAt) {
    }

    record Attempt(Instant at, Integer httpStatus, String error, Integer durationMs) {
    }

    record AppointmentList(List<Appointment> appointments) {
    }

    /** requests-service's appointment as the list gives it, as far as the console shows it. */
    record Appointment(String id, String requestId, String status, Instant startTime, Instant endTime, String timezone,
                       String patientName) {
    }

    record AvailabilityEnvelope(Availability availability) {
    }

    /** requests-service's {@code availability}: the zone, the weekly intervals and the slot length. */
    record Availability(String prescriberId, String timezone, List<Interval> weekly, Integer slotMinutes) {
    }

    record Interval(int weekday, String start, String end) {
    }

    /** {@code GET /ops/v1/conversations}: a page of threads, unread first; {@code nextCursor} null on the last page. */
    record ConversationPage(List<Conversation> conversations, String nextCursor) {
    }

    /** messaging-service's conversation (partner-api.md, Conversation), as far as the console shows it. */
    record Conversation(String id, String memberName, String prescriberId, String prescriberName, String partnerId, Instant lastMessageAt,
                        Integer unreadByPrescriber) {
    }

    /** {@code GET /ops/v1/conversations/{id}/messages}: the conversation and a page of its messages, oldest first. */
    record Thread(Conversation conversation, List<Message> messages, String nextCursor) {
    }

    /** A message (partner-api.md, Message), as far as the console shows it. */
    record Message(String id, String senderRole, String senderName, String type, String text, String attachmentUrl, String attachmentName,
                   String handoffCategory, Instant createdAt) {
    }

    /** {@code GET /ops/v1/drugs}: every drug with its pharmacy (operations-api.md, "Catalogue"). */
    record Drugs(List<Drug> drugs) {
    }

    record Drug(String id, String name, String description, String defaultAdCopy, String classification, List<Sku> skus,
                DrugPharmacy pharmacy) {
    }

    /** A SKU; {@code packageSize} and {@code concentration} kept as the API gives them (the console's form does not edit them). */
    record Sku(String id, String label, JsonNode packageSize, JsonNode concentration, boolean active) {
    }

    record DrugPharmacy(String id, String method) {
    }

    record SurveyEnvelope(Survey survey) {
    }

    /** An intake survey with its rules; {@code questions} as the API gives them (the console edits them as JSON). */
    record Survey(String id, String title, List<String> drugIds, JsonNode questions, Instant createdAt, Instant updatedAt) {
    }

    record PrescriberEnvelope(Prescriber prescriber) {
    }

    record Prescriber(String id, String name, String email, Instant createdAt) {
    }

    /** {@code POST /ops/v1/pharmacies/:pharmacyId/credentials}: the {@code phk_} key, shown once (gateway README). */
    record PharmacyKey(String credentialId, String key) {
    }

    /** {@code GET /ops/v1/pharmacy/failed-transmissions}: unsent items whose last transmission failed, newest first. */
    record FailedTransmissions(List<FailedTransmission> items) {
    }

    record FailedTransmission(String requestId, String itemId, String partnerId, String error, Instant failedAt) {
    }

    /** {@code POST .../send-to-pharmacy}: {@code success} false with {@code error} {@code Fulfillment held: <code>: <reason>}. */
    record SendOutcome(Boolean success, String method, List<String> warnings, String error) {
    }
}
