package com.telemed.requests.simulation;

import com.fasterxml.jackson.databind.node.IntNode;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.common.validation.Issues;
import com.telemed.requests.appointment.Appointment;
import com.telemed.requests.appointment.Appointments;
import com.telemed.requests.appointment.BookInput;
import com.telemed.requests.appointment.OutcomeInput;
import com.telemed.requests.availability.Availabilities;
import com.telemed.requests.availability.SlotRange;
import com.telemed.requests.availability.TimeSpan;
import com.telemed.requests.catalogue.CatalogueClient;
import com.telemed.requests.catalogue.DrugLookup;
import com.telemed.requests.consultation.Consultation;
import com.telemed.requests.fulfilment.SendOutcome;
import com.telemed.requests.fulfilment.ShippingUpdateInput;
import com.telemed.requests.fulfilment.ShippingUpdates;
import com.telemed.requests.fulfilment.Transmissions;
import com.telemed.requests.messaging.MessagingClient;
import com.telemed.requests.request.ItemStatus;
import com.telemed.requests.request.LineItem;
import com.telemed.requests.request.Request;
import com.telemed.requests.request.RequestQueries;
import com.telemed.requests.request.RequestStatus;
import com.telemed.requests.review.Review;
import com.telemed.requests.review.ReviewInput;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;

/**
 * The sandbox's other side (partner-extensions.md, "Sandbox simulation"): one step on a partner's
 * request, through the same code path as the real actor, so it writes the same rows and publishes
 * exactly the same events:
 * <ul>
 *   <li>the sandbox prescriber ({@link SandboxPrescriber}) approves, denies and asks for a
 *       consultation through the console's decisions ({@link Review}), signing with the SKU's
 *       defaults ({@link #defaults}); completes a consultation as the console's outcome
 *       {@code held} ({@link Appointments#outcome}); writes to the member as the console's reply
 *       does (messaging-service's {@code prescriber-messages}, {@link MessagingClient});</li>
 *   <li>the patient books the next open slot of the consultation's prescriber through the booking
 *       page's booking ({@link Appointments#bookOnLink});</li>
 *   <li>the pharmacy ships and delivers with its shipping updates ({@link ShippingUpdates}), an
 *       approved item not yet transmitted first sent as the partner's send-to-pharmacy sends it
 *       ({@link Transmissions#sendForPartner}).</li>
 * </ul>
 * Each step checks the item's state first and answers
 * {@code 409 {"error":"Cannot <action> item in status <status>"}} when the step is not one the
 * state allows; the real path checks again under the request's lock. No transaction is open across
 * a call to another service.
 */
@ApplicationScoped
public class Simulations {

    static final String CANNOT = "Cannot %s item in status %s";
    static final String ITEM_REQUIRED = "itemId is required when the request has more than one live item";
    static final String ITEM_NOT_FOUND = "Line item not found";
    /** What the sandbox prescriber writes when the partner sends no {@code text}. */
    static final String DEFAULT_MESSAGE = "Hello from the sandbox prescriber. This message was simulated.";
    /** The sandbox pharmacy's statuses and carrier. */
    static final String SHIPPED = "shipped";
    static final String DELIVERED = "delivered";
    static final String DEFAULT_CARRIER = "USPS";
    /** How long a ship step waits for a transmission another sender has in flight (the dispatcher after an approval). */
    static final Duration IN_FLIGHT_WAIT = Duration.ofSeconds(15);
    /** The next open slot is looked for this far ahead; a booking that lost its slot to another tries the next ones. */
    static final Duration SLOT_HORIZON = Duration.ofDays(31);
    static final int BOOKING_TRIES = 5;

    /**
     * The SKU's defaults the sandbox prescriber signs: one package, 30 days, no refill, these
     * directions (the catalogue holds no dosing defaults; partner-api.md's SKU has none).
     */
    static final int DEFAULT_DAYS_SUPPLY = 30;
    static final String DEFAULT_DIRECTIONS = "Use as directed (sandbox simulation)";
    static final String DEFAULT_QUANTITY_UNITS = "package";

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String TRACKING_ALPHABET = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ";

    private final Review review;
    private final Appointments appointments;
    private final Availabilities availabilities;
    private final Transmissions transmissions;
    private final ShippingUpdates shipping;
    private final MessagingClient messaging;
    private final CatalogueClient catalogue;
    private final SandboxPrescriber prescriber;
    private final RequestQueries queries;
    private final Clock clock;

    public Simulations(Review review, Appointments appointments, Availabilities availabilities, Transmissions transmissions,
                       ShippingUpdates shipping, MessagingClient messaging, CatalogueClient catalogue,
                       SandboxPrescriber prescriber, RequestQueries queries, Clock clock) {
        this.review = review;
        this.appointments = appointments;
        this.availabilities = availabilities;
        this.transmissions = transmissions;
        this.shipping = shipping;
        this.messaging = messaging;
        this.catalogue = catalogue;
        this.prescriber = prescriber;
        this.queries = queries;
        this.clock = clock;
    }

    /** {@code POST /v1/sandbox/requests/:id/simulate}: the step, then the request as the partner reads it. */
    SimulationViews.Simulated simulate(String partnerId, String requestId, SimulationInput input) {
        step(partnerId, requestId, input);
        return new SimulationViews.Simulated(queries.detail(partnerId, requestId));
    }

    /** The request and the item a step acts on, as read before it (the real path reads them again under its lock). */
    private record Target(UUID requestId, String partnerId, UUID memberId, LineItem item, String requestStatus) {

        String status() {
            return item != null ? item.status : requestStatus;
        }
    }

    /** One step; also the autopilot's ({@link Autopilot}). */
    void step(String partnerId, String requestId, SimulationInput input) {
        Target target = target(partnerId, requestId, input.itemId());
        String action = input.action();
        if (SimulationSchemas.PRESCRIBER_MESSAGE.equals(action)) {
            messaging.prescriberMessage(partnerId, target.memberId(), prescriber.id(),
                    input.text() != null ? input.text() : DEFAULT_MESSAGE);
            return;
        }
        if (target.item() == null) {
            // A consultation request without items: no item to act on.
            throw cannot(action, target.status());
        }
        LineItem item = target.item();
        switch (action) {
            case SimulationSchemas.APPROVE -> {
                require(action, item, ItemStatus.undecided(item.status));
                ReviewInput.Prescription prescription = defaults(partnerId, item);
                refusedAsConflict(action, target, () -> review.approveItem(requestId, item.id.toString(),
                        new ReviewInput.ItemApproval(prescriber.id().toString(), prescription)));
            }
            case SimulationSchemas.DENY -> {
                require(action, item, ItemStatus.undecided(item.status));
                refusedAsConflict(action, target,
                        () -> review.denyItem(requestId, item.id.toString(), prescriber.id().toString(), input.reason()));
            }
            case SimulationSchemas.REQUEST_CONSULTATION -> {
                require(action, item, ItemStatus.PENDING.equals(item.status));
                refusedAsConflict(action, target,
                        () -> review.requestItemConsultation(requestId, item.id.toString(), prescriber.id().toString()));
            }
            case SimulationSchemas.BOOK -> book(target);
            case SimulationSchemas.COMPLETE_CONSULTATION -> {
                Appointment booked = QuarkusTransaction.requiringNew().call(() -> ItemStatus.CALL_REQUESTED.equals(item.status)
                        ? Appointment.<Appointment>find("requestId = ?1 and itemId = ?2 and status = ?3 order by createdAt desc",
                                target.requestId(), item.id, Appointment.BOOKED).firstResult()
                        : null);
                require(action, item, booked != null);
                refusedAsConflict(action, target, () -> appointments.outcome(booked.id.toString(), new OutcomeInput(Appointment.HELD),
                        prescriberId -> {
                        }));
            }
            case SimulationSchemas.SHIP -> ship(target, input);
            case SimulationSchemas.DELIVER -> {
                require(action, item, item.shippedAt != null && !DELIVERED.equals(item.deliveryStatus));
                shipping.apply(new ShippingUpdateInput(item.pharmacyOrderId, DELIVERED, null, null, null), Optional.empty());
            }
            default -> throw new IllegalArgumentException("No simulated action " + action);
        }
    }

    /**
     * The partner's request ({@code 404 Request not found} otherwise) and its item: the one named, else
     * its one live (not cancelled) item, else its last item; none for a request without items. More
     * than one live item and none named is a {@code 400} issue at {@code ["itemId"]}.
     */
    private Target target(String partnerId, String requestId, String itemId) {
        return QuarkusTransaction.requiringNew().call(() -> {
            Request request = RequestQueries.owned(partnerId, requestId);
            List<LineItem> items = LineItem.ofRequest(request.id);
            LineItem item;
            if (itemId != null) {
                item = Ids.uuid(itemId).flatMap(id -> items.stream().filter(each -> each.id.equals(id)).findFirst())
                        .orElseThrow(() -> ApiException.notFound(ITEM_NOT_FOUND));
            } else {
                List<LineItem> live = items.stream().filter(each -> !ItemStatus.CANCELLED.equals(each.status)).toList();
                if (live.size() > 1) {
                    Issues issues = new Issues();
                    issues.custom(List.of("itemId"), ITEM_REQUIRED);
                    issues.throwIfAny();
                }
                item = !live.isEmpty() ? live.get(0) : items.isEmpty() ? null : items.get(items.size() - 1);
            }
            String status = RequestStatus.computed(request, items.stream().map(each -> each.status).toList());
            return new Target(request.id, request.partnerId, request.memberId, item, status);
        });
    }

    /**
     * What the sandbox prescriber signs: the SKU the item asks for (chosen, requested by id or by its
     * dosage label), else the drug's first active SKU, from requests-service's copy of the catalogue;
     * and the defaults above. A drug the catalogue no longer has is left to the decision's own answer.
     */
    private ReviewInput.Prescription defaults(String partnerId, LineItem item) {
        Optional<DrugLookup> drug = catalogue.lookup(partnerId, item.drugId);
        String skuId = item.selectedSkuId != null ? item.selectedSkuId : item.requestedSkuId;
        if (skuId == null && drug.isPresent()) {
            List<DrugLookup.Sku> skus = drug.get().skus();
            skuId = skus.stream().filter(sku -> item.dosage != null && sku.label().equals(item.dosage) && sku.active())
                    .map(DrugLookup.Sku::id).findFirst()
                    .or(() -> skus.stream().filter(DrugLookup.Sku::active).map(DrugLookup.Sku::id).findFirst())
                    .orElse(null);
        }
        return new ReviewInput.Prescription(skuId, IntNode.valueOf(1), DEFAULT_QUANTITY_UNITS, DEFAULT_DAYS_SUPPLY,
                DEFAULT_DIRECTIONS, 0, false, null, null);
    }

    /**
     * The patient books the next open slot of the consultation's prescriber with the item's open
     * booking link; a slot another booking took meanwhile ({@code 409 Slot no longer available}) makes
     * it try the next one.
     */
    private void book(Target target) {
        LineItem item = target.item();
        String action = SimulationSchemas.BOOK;
        Consultation link = QuarkusTransaction.requiringNew().call(() -> ItemStatus.CALL_REQUESTED.equals(item.status)
                ? Consultation.<Consultation>find("requestId = ?1 and itemId = ?2 order by createdAt desc", target.requestId(), item.id)
                        .firstResult()
                : null);
        boolean unbooked = link != null && QuarkusTransaction.requiringNew().call(() -> Appointment.count("consultationId", link.id) == 0);
        require(action, item, unbooked);
        for (int attempt = 0; ; attempt++) {
            Instant now = clock.instant();
            List<TimeSpan> open = QuarkusTransaction.requiringNew().call(() ->
                    availabilities.openSlots(link.prescriberId, new SlotRange(now, now.plus(SLOT_HORIZON))));
            TimeSpan slot = open.isEmpty() ? anyTime(now) : open.get(Math.min(attempt, open.size() - 1));
            BookInput booking = new BookInput(slot.startTime().toString(),
                    (int) Duration.between(slot.startTime(), slot.endTime()).toMinutes(), "UTC");
            try {
                refusedAsConflict(action, target, () -> appointments.bookOnLink(link, booking));
                return;
            } catch (ApiException taken) {
                if (taken.status() != 409 || !"Slot no longer available".equals(taken.getMessage()) || attempt + 1 >= BOOKING_TRIES) {
                    throw taken;
                }
            }
        }
    }

    /** A prescriber without weekly hours takes any time: the next whole hour at least an hour ahead, for 30 minutes. */
    private static TimeSpan anyTime(Instant now) {
        Instant start = now.plus(Duration.ofHours(2)).truncatedTo(ChronoUnit.HOURS);
        return new TimeSpan(start, start.plus(Duration.ofMinutes(30)));
    }

    /**
     * The pharmacy's first shipped update, tracking number and carrier as sent (else generated and
     * {@code USPS}); an approved item not yet transmitted is transmitted first, as the partner's
     * send-to-pharmacy does, or waited for when the dispatcher has it in flight.
     */
    private void ship(Target target, SimulationInput input) {
        LineItem item = target.item();
        String action = SimulationSchemas.SHIP;
        boolean sendable = ItemStatus.APPROVED.equals(item.status) || ItemStatus.COMPLETED.equals(item.status);
        require(action, item, sendable && item.shippedAt == null);
        String orderId = item.pharmacyOrderId;
        if (!item.pharmacySent) {
            try {
                SendOutcome sent = transmissions.sendForPartner(target.partnerId(), target.requestId().toString(), item.id.toString());
                // Refused (a hold, a pharmacy's refusal): the item stays untransmitted, nothing to ship. Another
                // sender's transmission in flight is waited for below.
                if (!sent.success() && !sent.error().contains("in progress")) {
                    throw cannot(action, item.status);
                }
            } catch (ApiException alreadySent) {
                if (alreadySent.status() != 400) {
                    throw alreadySent;
                }
                // Sent by the dispatcher between our read and our claim: read below.
            }
            orderId = sentOrder(item.id).orElseThrow(() -> cannot(action, item.status));
        }
        String tracking = input.trackingNumber() != null ? input.trackingNumber() : trackingNumber();
        String carrier = input.shipCarrier() != null ? input.shipCarrier() : DEFAULT_CARRIER;
        shipping.apply(new ShippingUpdateInput(orderId, SHIPPED, tracking, carrier, true), Optional.empty());
    }

    /** The item's pharmacy order once transmitted, waiting up to {@link #IN_FLIGHT_WAIT} for a transmission in flight. */
    private Optional<String> sentOrder(UUID itemId) {
        Instant until = clock.instant().plus(IN_FLIGHT_WAIT);
        while (true) {
            LineItem now = QuarkusTransaction.requiringNew().call(() -> LineItem.<LineItem>findById(itemId));
            if (now != null && now.pharmacySent) {
                return Optional.ofNullable(now.pharmacyOrderId);
            }
            if (now == null || now.transmissionClaim == null || !clock.instant().isBefore(until)) {
                return Optional.empty();
            }
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
    }

    /** {@code SBX} and twelve characters: a generated tracking number. */
    private static String trackingNumber() {
        StringBuilder tracking = new StringBuilder("SBX");
        for (int i = 0; i < 12; i++) {
            tracking.append(TRACKING_ALPHABET.charAt(RANDOM.nextInt(TRACKING_ALPHABET.length())));
        }
        return tracking.toString();
    }

    private static void require(String action, LineItem item, boolean allowed) {
        if (!allowed) {
            throw cannot(action, item.status);
        }
    }

    static ApiException cannot(String action, String status) {
        return new ApiException(409, CANNOT.formatted(action, status));
    }

    /**
     * Runs the real path; its own refusal of the item's state (the state changed between our read and
     * its lock: {@code 400 Item status is ...}, {@code 409 Consultation is no longer open}) is the
     * contract's {@code 409} with the status as it is now.
     */
    private <T> T refusedAsConflict(String action, Target target, java.util.function.Supplier<T> real) {
        try {
            return real.get();
        } catch (ApiException refused) {
            boolean state = refused.status() == 400 && refused.getMessage() != null && refused.getMessage().startsWith("Item status is")
                    || refused.status() == 409 && !"Slot no longer available".equals(refused.getMessage());
            if (!state) {
                throw refused;
            }
            String now = QuarkusTransaction.requiringNew().call(() -> {
                LineItem item = LineItem.findById(target.item().id);
                return item == null ? target.status() : item.status;
            });
            throw cannot(action, now);
        }
    }
}
