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
 * order (taken at insert) equal to commit order. Internal only: {@code webhook} is null, so the
 * partner never receives these events (webhook-service does not consume this topic, and delivers
 * no envelope without a webhook on any topic).
 *
 * <p>What {@code data} carries of the member. An earlier decision kept names and email off the
 * bus ("data carries no names/email"); it is revised: billing-service's ledger holds the
 * {@code memberName} and {@code memberEmail} of the billing contract, fed by these events. So
 * {@code firstName}, {@code lastName} and {@code email}, the stored values, ride on
 * {@code member.created} and {@code member.updated}, and only those: never phone, date of birth
 * or addresses (no consumer needs them; a consumer that does reads members-service). Retention:
 * these values stay on the topic for its retention period (Kafka's default, 7 days, under
 * ./stack), and in every consumer that keeps them. The topic is not kept forever, and need not
 * be: billing rebuilds its ledger from the owners' internal endpoints
 * ({@code GET /internal/members/billing-export}, requests-service's first approvals), never by
 * replaying topics.
 *
 * <ul>
 *   <li>{@code member.created}: {@code {memberId, status, firstName, lastName, email}}</li>
 *   <li>{@code member.updated} (every successful update): {@code {memberId, changedFields,
 *       firstName, lastName, email}}: the contract names of the fields whose stored value
 *       changed, in a fixed order (empty when the update changed nothing but {@code updatedAt}),
 *       then the three values after the update, always present whether or not they changed</li>
 *   <li>{@code member.status_changed} (only on a real change, after {@code member.updated}):
 *       {@code {memberId, previousStatus, newStatus, statusChangeId}}, the last the id of the
 *       {@code member_status_audit} row written for the change</li>
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
        publish(CREATED, member.partnerId, member.id, member.createdAt,
                withContact(data(member.id).put("status", member.status), member));
    }

    /**
     * {@code member.updated}, then {@code member.status_changed} when the status really changed.
     * {@code statusChangeId} is the id of the status audit row the update wrote, null when it wrote
     * none (the status did not change).
     */
    void updated(MemberViews.Stored before, Member after, UUID statusChangeId) {
        MemberViews.Stored now = MemberViews.Stored.of(after);
        ObjectNode updated = data(after.id);
        var fields = updated.putArray("changedFields");
        changedFields(before, now).forEach(fields::add);
        publish(UPDATED, after.partnerId, after.id, after.updatedAt, withContact(updated, after));
        if (!before.status().equals(now.status())) {
            if (statusChangeId == null) {
                throw new IllegalStateException("a status change without its audit row");
            }
            publish(STATUS_CHANGED, after.partnerId, after.id, after.updatedAt,
                    data(after.id).put("previousStatus", before.status()).put("newStatus", now.status())
                            .put("statusChangeId", statusChangeId.toString()));
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

    /**
     * The member's stored names and email, the only member values on this topic (billing's
     * {@code memberName} and {@code memberEmail}); never phone, date of birth or addresses.
     */
    private static ObjectNode withContact(ObjectNode data, Member member) {
        return data.put("firstName", member.firstName).put("lastName", member.lastName).put("email", member.email);
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
