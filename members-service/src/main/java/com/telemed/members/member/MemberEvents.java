package com.telemed.members.member;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.event.EventEnvelope;
import com.telemed.common.event.EventSubject;
import com.telemed.common.outbox.Outbox;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * The {@code member.events} a member change emits, written to the outbox in the caller's
 * transaction (so an event exists exactly when its change committed). Key = member id, so one
 * member's events stay in order; writers of a member hold its row lock, which makes the outbox
 * order (taken at insert) equal to commit order. Internal only: {@code webhook} is null.
 *
 * <p>The {@code data} carries ids, statuses and the names of changed fields, never values of
 * names, email, phone, date of birth or addresses: the consumers (billing counts members by
 * status) need none of it, and patient data on the bus would be copied into every consumer and
 * kept as long as the topic's retention. A consumer that needs a value reads it from members-service.
 *
 * <ul>
 *   <li>{@code member.created}: {@code {memberId, status}}</li>
 *   <li>{@code member.updated} (every successful update): {@code {memberId, changedFields}}, the
 *       contract names of the fields whose stored value changed, in a fixed order; empty when
 *       the update changed nothing but {@code updatedAt}</li>
 *   <li>{@code member.status_changed} (only on a real change, after {@code member.updated}):
 *       {@code {memberId, previousStatus, newStatus}}</li>
 *   <li>{@code member.deleted}: {@code {memberId}}, so consumers can forget the member</li>
 * </ul>
 * {@code occurredAt} is the change's own timestamp (the member's {@code updatedAt} or
 * {@code createdAt}), so an event and the stored member agree.
 */
@ApplicationScoped
public class MemberEvents {

    public static final String TOPIC = "member.events";

    public static final String CREATED = "member.created";
    public static final String UPDATED = "member.updated";
    public static final String STATUS_CHANGED = "member.status_changed";
    public static final String DELETED = "member.deleted";

    private final Outbox outbox;

    public MemberEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    void created(Member member) {
        publish(CREATED, member.partnerId, member.id, member.createdAt, data(member.id).put("status", member.status));
    }

    /** {@code member.updated}, then {@code member.status_changed} when the status really changed. */
    void updated(MemberViews.Stored before, Member after) {
        MemberViews.Stored now = MemberViews.Stored.of(after);
        ObjectNode updated = data(after.id);
        var fields = updated.putArray("changedFields");
        changedFields(before, now).forEach(fields::add);
        publish(UPDATED, after.partnerId, after.id, after.updatedAt, updated);
        if (!before.status().equals(now.status())) {
            publish(STATUS_CHANGED, after.partnerId, after.id, after.updatedAt,
                    data(after.id).put("previousStatus", before.status()).put("newStatus", now.status()));
        }
    }

    void deleted(Member member, Instant at) {
        publish(DELETED, member.partnerId, member.id, at, data(member.id));
    }

    /** The contract names of the fields whose stored value differs, in the Member table's order. */
    static List<String> changedFields(MemberViews.Stored before, MemberViews.Stored after) {
        List<String> changed = new ArrayList<>();
        addIf(changed, "firstName", before.firstName(), after.firstName());
        addIf(changed, "lastName", before.lastName(), after.lastName());
        addIf(changed, "email", before.email(), after.email());
        addIf(changed, "phone", before.phone(), after.phone());
        addIf(changed, "dateOfBirth", before.dateOfBirth(), after.dateOfBirth());
        addIf(changed, "state", before.state(), after.state());
        addIf(changed, "status", before.status(), after.status());
        addIf(changed, "address", before.address(), after.address());
        addIf(changed, "shippingAddress", before.shippingAddress(), after.shippingAddress());
        return changed;
    }

    private static void addIf(List<String> changed, String field, Object before, Object after) {
        if (!Objects.equals(before, after)) {
            changed.add(field);
        }
    }

    private static ObjectNode data(UUID memberId) {
        return JsonNodeFactory.instance.objectNode().put("memberId", memberId.toString());
    }

    private void publish(String type, String partnerId, UUID memberId, Instant at, ObjectNode data) {
        String key = memberId.toString();
        outbox.publish(TOPIC, key, new EventEnvelope(UUID.randomUUID().toString(), type, partnerId, at,
                EventSubject.member(key), data, null));
    }
}
