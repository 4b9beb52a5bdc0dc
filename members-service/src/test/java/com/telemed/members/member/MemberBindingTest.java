package com.telemed.members.member;

import static com.telemed.members.member.MemberFixtures.input;
import static com.telemed.members.member.MemberFixtures.json;
import static com.telemed.members.member.MemberFixtures.memberBody;
import static com.telemed.members.member.MemberFixtures.patch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.validation.Issue;
import com.telemed.common.validation.ValidationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Validate the tree, then bind it ({@link MemberSchemas#bind}): what each member body becomes for
 * the services, and above all that a {@code PUT} still tells a field not sent from one sent as null.
 */
class MemberBindingTest {

    private static final AddressView HOME = new AddressView("1 Main St", null, "Springfield", "CA", "90210");
    private static final String HOME_JSON =
            "{\"street1\": \"1 Main St\", \"city\": \"Springfield\", \"state\": \"CA\", \"zipCode\": \"90210\"}";

    @Test
    void anEmptyUpdateSendsNothing() {
        assertEquals(new MemberPatch(null, null, null, Clearable.absent(), null, null, null, Clearable.absent(), null),
                patch("{}"));
    }

    @Test
    void anUpdateTellsPhoneAndShippingAddressSentAsNullFromNotSent() {
        MemberPatch cleared = patch("{\"phone\": null, \"shippingAddress\": null}");
        assertTrue(cleared.phone().sent());
        assertNull(cleared.phone().value());
        assertTrue(cleared.shippingAddress().sent());
        assertNull(cleared.shippingAddress().value());

        MemberPatch other = patch("{\"firstName\": \"Ada\"}");
        assertFalse(other.phone().sent());
        assertFalse(other.shippingAddress().sent());
    }

    @Test
    void anUpdateBindsEverySentFieldAndIgnoresUnknownKeys() {
        MemberPatch full = patch("""
                {"firstName": "Ada", "lastName": "King", "email": "ada@example.com", "phone": "555-0100",
                 "dateOfBirth": "1815-12-10", "state": "NY", "status": "paused", "gender": "f", "unknown": 1,
                 "address": {"street1": "1 Main St", "city": "Springfield", "state": "CA", "zipCode": "90210",
                             "extra": true},
                 "shippingAddress": {"street1": "9 Dock Rd", "street2": "Pier 2", "city": "Buffalo", "state": "NY",
                                     "zipCode": "14201-1234"}}""");
        assertEquals(new MemberPatch("Ada", "King", "ada@example.com", Clearable.of("555-0100"), "1815-12-10", "NY",
                HOME, Clearable.of(new AddressView("9 Dock Rd", "Pier 2", "Buffalo", "NY", "14201-1234")), "paused"),
                full);
    }

    @Test
    void aCreateBindsItsFieldsButNeverAStatus() {
        MemberInput input = input("""
                {"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com", "dateOfBirth": "1815-12-10",
                 "state": "NY", "gender": "f", "status": "cancelled", "unknown": 1, "phone": "555",
                 "address": %s}""".formatted(HOME_JSON));
        assertEquals(new MemberInput("Ada", "Lovelace", "ada@example.com", Clearable.of("555"), "1815-12-10", "NY", "f",
                HOME, Clearable.absent()), input);

        MemberInput bare = input(memberBody("Bo", "Diddley", "bo@example.com"));
        assertNull(bare.gender());
        assertNull(bare.phone().value());
        assertNull(bare.shippingAddress().value());
    }

    @Test
    void theInlineUpdateIsThePutOfTheInlineFieldsWithoutGenderOrStatus() {
        MemberInput kept = input(memberBody("Ada", "Lovelace", "ada@example.com"));
        assertEquals(new MemberPatch("Ada", "Lovelace", "ada@example.com", Clearable.absent(), "1990-04-01", "CA", HOME,
                Clearable.absent(), null), kept.inlineUpdate());

        MemberInput cleared = input("""
                {"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com", "dateOfBirth": "1990-04-01",
                 "state": "CA", "gender": "u", "status": "active", "phone": null, "shippingAddress": null,
                 "address": %s}""".formatted(HOME_JSON));
        assertEquals(new MemberPatch("Ada", "Lovelace", "ada@example.com", Clearable.of(null), "1990-04-01", "CA", HOME,
                Clearable.of(null), null), cleared.inlineUpdate());
    }

    @Test
    void anInvalidBodyIsEveryIssueAndBindsNothing() {
        ValidationException update = assertThrows(ValidationException.class,
                () -> patch("{\"firstName\": null, \"status\": \"gone\", \"phone\": 5}"));
        assertEquals(List.of(List.of("firstName"), List.of("phone"), List.of("status")),
                update.issues().stream().map(Issue::path).toList());

        ValidationException create = assertThrows(ValidationException.class, () -> input("{}"));
        assertEquals(6, create.issues().size());
        assertThrows(ValidationException.class,
                () -> MemberSchemas.bind(MemberSchemas.UPDATE, null, MemberPatch.class));
    }

    @Test
    void theInternalBodiesBindTheirPartnerAndContent() {
        var findOrCreate = MemberSchemas.bind(MemberSchemas.FIND_OR_CREATE,
                json("{\"partnerId\": \"p-1\", \"member\": " + memberBody("Ada", "L", "a@example.com") + "}"),
                InternalMemberResource.FindOrCreateBody.class);
        assertEquals("p-1", findOrCreate.partnerId());
        assertEquals(input(memberBody("Ada", "L", "a@example.com")), findOrCreate.member());

        var batch = MemberSchemas.bind(MemberSchemas.BATCH,
                json("{\"partnerId\": \"p-1\", \"memberIds\": [\"a\", \"b\"]}"), InternalMemberResource.BatchBody.class);
        assertEquals(new InternalMemberResource.BatchBody("p-1", List.of("a", "b")), batch);

        var query = MemberSchemas.bind(MemberSchemas.LIST_QUERY, json("{\"page\": \"2\", \"search\": \"ada\"}"),
                MemberResource.ListQuery.class);
        assertEquals(new MemberResource.ListQuery("2", null, "ada", null), query);
    }

    @Test
    void clearableIsAbsentOrSentWithAValueOrNull() {
        assertFalse(Clearable.absent().sent());
        assertNull(Clearable.absent().value());
        assertEquals(Clearable.of(null), new Clearable<>(true, null));
        assertThrows(IllegalArgumentException.class, () -> new Clearable<>(false, "value"));
        // A record built in code without them: absent, never null.
        MemberPatch built = new MemberPatch(null, null, null, null, null, null, null, null, "paused");
        assertFalse(built.phone().sent());
        assertFalse(built.shippingAddress().sent());
    }
}
