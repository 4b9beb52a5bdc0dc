package com.telemed.members.member;

import static com.telemed.members.member.MemberFixtures.auditIdsOf;
import static com.telemed.members.member.MemberFixtures.auditOf;
import static com.telemed.members.member.MemberFixtures.input;
import static com.telemed.members.member.MemberFixtures.memberBody;
import static com.telemed.members.member.MemberFixtures.newPartner;
import static com.telemed.members.member.MemberFixtures.patch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.error.ApiException;
import com.telemed.members.FakeRequestsService;
import com.telemed.members.FakeRequestsServiceResource;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The write path called directly with bound records, as the resources call it. */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class MemberServiceTest {

    private static final String FULL = """
            {"firstName": "Linus", "lastName": "Pauling", "email": "linus@example.com", "phone": "555-0101",
             "dateOfBirth": "1901-02-28", "state": "OR", "gender": "m",
             "address": {"street1": "1 Home St", "street2": "Unit 5", "city": "Portland", "state": "OR",
                         "zipCode": "97201"},
             "shippingAddress": {"street1": "2 Ship St", "city": "Salem", "state": "OR", "zipCode": "97301"}}""";

    private static final AddressView HOME = new AddressView("1 Home St", "Unit 5", "Portland", "OR", "97201");
    private static final AddressView SHIP = new AddressView("2 Ship St", null, "Salem", "OR", "97301");

    @Inject
    MemberService members;

    @Inject
    MemberQueries queries;

    @Inject
    FakeRequestsService requestsService;

    @BeforeEach
    void reset() {
        requestsService.reset();
    }

    /** The member as stored now, read in a transaction of its own (a fresh persistence context). */
    private Member stored(String partnerId, UUID id) {
        return QuarkusTransaction.requiringNew().call(() -> queries.get(partnerId, Optional.of(id)));
    }

    /** As the resource calls it; its lookup runs in a transaction here, not a request's context. */
    private void delete(String partnerId, Optional<UUID> id) {
        QuarkusTransaction.requiringNew().run(() -> members.delete(partnerId, id));
    }

    @Test
    void createStoresAnActiveMemberWithEveryInputField() {
        String partnerId = newPartner();
        Member created = members.create(partnerId, input(FULL));
        Member member = stored(partnerId, created.id);
        assertEquals(partnerId, member.partnerId);
        assertEquals("Linus", member.firstName);
        assertEquals("Pauling", member.lastName);
        assertEquals("linus@example.com", member.email);
        assertEquals("555-0101", member.phone);
        assertEquals("1901-02-28", member.dateOfBirth);
        assertEquals("OR", member.state);
        assertEquals("m", member.gender);
        assertEquals("active", member.status);
        assertEquals(HOME, member.address());
        assertEquals(SHIP, member.shippingAddress());
        assertEquals(member.createdAt, member.updatedAt);

        Member bare = stored(partnerId, members.create(partnerId, input(memberBody("Bo", "D", "bo@example.com"))).id);
        assertNull(bare.phone);
        assertNull(bare.gender);
        assertNull(bare.shippingAddress());
    }

    @Test
    void updateChangesOnlyWhatThePatchSendsAndNullClears() {
        String partnerId = newPartner();
        UUID id = members.create(partnerId, input(FULL)).id;

        members.update(partnerId, Optional.of(id), patch("{\"firstName\": \"Ava\"}"));
        Member renamed = stored(partnerId, id);
        assertEquals("Ava", renamed.firstName);
        assertEquals("555-0101", renamed.phone, "not sent: kept");
        assertEquals(SHIP, renamed.shippingAddress(), "not sent: kept");

        members.update(partnerId, Optional.of(id), patch("""
                {"phone": null, "shippingAddress": null,
                 "address": {"street1": "10 New Rd", "city": "Seattle", "state": "WA", "zipCode": "98101"}}"""));
        Member cleared = stored(partnerId, id);
        assertNull(cleared.phone);
        assertNull(cleared.shippingAddress());
        assertEquals(new AddressView("10 New Rd", null, "Seattle", "WA", "98101"), cleared.address(), "replaced whole");
        assertEquals("Ava", cleared.firstName);
        assertEquals("m", cleared.gender, "not a PUT field");
    }

    @Test
    void updateAuditsOnlyARealStatusChange() {
        String partnerId = newPartner();
        UUID id = members.create(partnerId, input(FULL)).id;
        members.update(partnerId, Optional.of(id), patch("{\"status\": \"active\"}"));
        assertEquals(List.of(), auditOf(id.toString()));
        members.update(partnerId, Optional.of(id), patch("{\"status\": \"paused\"}"));
        members.update(partnerId, Optional.of(id), patch("{\"status\": \"paused\", \"lastName\": \"P\"}"));
        assertEquals(List.of("active->paused@" + partnerId), auditOf(id.toString()));
        assertEquals("paused", stored(partnerId, id).status);
    }

    /** The write path's events carry the stored names and email, and the status audit row's id. */
    @Test
    void aStatusChangeIsPublishedWithItsAuditRowAndTheValuesAfterTheUpdate() {
        String partnerId = newPartner();
        UUID id = members.create(partnerId, input(FULL)).id;
        members.update(partnerId, Optional.of(id), patch("{\"status\": \"paused\", \"email\": \"LINUS@example.org\"}"));
        List<String> audits = auditIdsOf(id.toString());
        assertEquals(1, audits.size());

        List<ConsumerRecord<String, String>> records = TopicReader.readKey(TopicReader.configuredBootstrapServers(),
                MemberEvents.TOPIC, id.toString(), 3, Duration.ofSeconds(30));
        assertEquals(List.of(MemberEvents.CREATED, MemberEvents.UPDATED, MemberEvents.STATUS_CHANGED),
                TopicReader.types(records));
        assertEquals("{\"memberId\":\"" + id + "\",\"status\":\"active\",\"firstName\":\"Linus\","
                + "\"lastName\":\"Pauling\",\"email\":\"linus@example.com\"}",
                TopicReader.json(records.get(0)).get("data").toString());
        assertEquals("{\"memberId\":\"" + id + "\",\"changedFields\":[\"email\",\"status\"],\"firstName\":\"Linus\","
                + "\"lastName\":\"Pauling\",\"email\":\"LINUS@example.org\"}",
                TopicReader.json(records.get(1)).get("data").toString());
        assertEquals("{\"memberId\":\"" + id + "\",\"previousStatus\":\"active\",\"newStatus\":\"paused\","
                + "\"statusChangeId\":\"" + audits.get(0) + "\"}",
                TopicReader.json(records.get(2)).get("data").toString());
    }

    @Test
    void anotherPartnersOrAnUnknownMemberIsNotFoundAndUnchanged() {
        String owner = newPartner();
        UUID id = members.create(owner, input(FULL)).id;
        for (Optional<UUID> wrong : List.of(Optional.of(id), Optional.of(UUID.randomUUID()), Optional.<UUID>empty())) {
            ApiException update = assertThrows(ApiException.class,
                    () -> members.update(newPartner(), wrong, patch("{\"status\": \"cancelled\"}")));
            assertEquals(404, update.status());
            assertEquals(MemberQueries.NOT_FOUND, update.getMessage());
            ApiException delete = assertThrows(ApiException.class, () -> delete(newPartner(), wrong));
            assertEquals(404, delete.status());
        }
        assertEquals("active", stored(owner, id).status);
        assertEquals(List.of(), requestsService.calls(), "requests-service is never asked about an unknown member");
    }

    @Test
    void findOrCreateCreatesThenReusesWithTheInlineFieldsAndGenderButNeverTheStatus() {
        String partnerId = newPartner();
        MemberService.FoundOrCreated first = members.findOrCreate(partnerId, input(FULL), Optional.empty());
        assertTrue(first.created());
        UUID id = first.member().id;
        members.update(partnerId, Optional.of(id), patch("{\"status\": \"paused\"}"));

        MemberInput inline = input("""
                {"firstName": "Lin", "lastName": "Pauling", "email": "LINUS@example.com", "dateOfBirth": "1901-02-28",
                 "state": "WA", "gender": "u", "status": "active", "shippingAddress": null,
                 "address": {"street1": "3 New Rd", "city": "Richmond", "state": "VA", "zipCode": "23219"}}""");
        MemberService.FoundOrCreated fenceFirst = members.findOrCreate(partnerId, inline, Optional.empty());
        assertEquals(new MemberService.Fence(id, 3), fenceFirst.fence(), "created at 1, paused at 2: the reuse is change 3");
        assertEquals("Linus", stored(partnerId, id).firstName, "nothing changed before the fence");
        MemberService.FoundOrCreated again = members.findOrCreate(partnerId, inline, Optional.of(fenceFirst.fence()));
        assertNull(again.fence());
        assertFalse(again.created());
        assertEquals(id, again.member().id);
        Member member = stored(partnerId, id);
        assertEquals("Lin", member.firstName);
        assertEquals("LINUS@example.com", member.email);
        assertEquals("WA", member.state);
        assertEquals("u", member.gender);
        assertEquals("555-0101", member.phone, "not sent: kept");
        assertNull(member.shippingAddress(), "sent as null: cleared");
        assertEquals("paused", member.status, "status is not an inline field");
        assertEquals(List.of("active->paused@" + partnerId), auditOf(id.toString()));
    }

    @Test
    void deleteAsksRequestsServiceThenDeletes() {
        String partnerId = newPartner();
        UUID kept = members.create(partnerId, input(FULL)).id;
        requestsService.hasRequests(partnerId, kept.toString());
        ApiException refused = assertThrows(ApiException.class, () -> delete(partnerId, Optional.of(kept)));
        assertEquals(400, refused.status());
        assertEquals(MemberService.HAS_REQUESTS, refused.getMessage());
        assertEquals("Linus", stored(partnerId, kept).firstName);

        UUID gone = members.create(partnerId, input(memberBody("Gone", "Member", "gone@example.com"))).id;
        delete(partnerId, Optional.of(gone));
        assertThrows(ApiException.class, () -> stored(partnerId, gone));
    }
}
