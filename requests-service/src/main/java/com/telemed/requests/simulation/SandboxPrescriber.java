package com.telemed.requests.simulation;

import com.telemed.common.json.Timestamps;
import com.telemed.requests.availability.Availabilities;
import com.telemed.requests.availability.AvailabilityInput;
import com.telemed.requests.availability.PrescriberAvailability;
import com.telemed.requests.prescriber.Prescriber;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

/**
 * The sandbox prescriber, one per deployment: the prescriber whose email is
 * {@code requests.sandbox.prescriber-email} ({@code sandbox-prescriber@sandbox.invalid}), created on
 * first use ({@link Prescriber#insertUnlessEmailTaken}: of replicas creating it at once, one inserts
 * and all pick that one). When it has no weekly hours it gets every day, all day, in 15-minute slots
 * (UTC), so the sandbox patient always finds a next open slot; hours an operator set are kept.
 */
@ApplicationScoped
public class SandboxPrescriber {

    static final int SLOT_MINUTES = 15;

    private final SandboxConfig config;
    private final Availabilities availabilities;
    private volatile UUID id;

    public SandboxPrescriber(SandboxConfig config, Availabilities availabilities) {
        this.config = config;
        this.availabilities = availabilities;
    }

    /** Its id; the first call (on each replica) picks or creates it, and gives it hours when it has none. */
    public UUID id() {
        UUID known = id;
        if (known == null) {
            known = pickOrCreate();
            id = known;
        }
        return known;
    }

    private UUID pickOrCreate() {
        UUID prescriberId = QuarkusTransaction.requiringNew().call(() -> {
            Prescriber prescriber = new Prescriber();
            prescriber.id = UUID.randomUUID();
            prescriber.name = config.prescriberName();
            prescriber.email = config.prescriberEmail();
            prescriber.createdAt = Timestamps.now();
            prescriber.insertUnlessEmailTaken();
            return Prescriber.<Prescriber>find("lower(email) = lower(?1)", config.prescriberEmail()).firstResult().id;
        });
        boolean hours = QuarkusTransaction.requiringNew().call(() -> PrescriberAvailability.findById(prescriberId) != null);
        if (!hours) {
            List<AvailabilityInput.Weekly> allWeek = IntStream.rangeClosed(1, 7)
                    .mapToObj(weekday -> new AvailabilityInput.Weekly(weekday, "00:00", "24:00")).toList();
            availabilities.put(prescriberId.toString(), new AvailabilityInput("UTC", allWeek, SLOT_MINUTES));
        }
        return prescriberId;
    }
}
