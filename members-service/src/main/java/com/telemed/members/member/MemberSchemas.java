package com.telemed.members.member;

import static com.telemed.common.validation.Schemas.array;
import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.ObjectSchema;
import java.util.regex.Pattern;

/** The Zod-style schemas of the members endpoints (partner-api.md, Member, Address object, Members). */
public final class MemberSchemas {

    public static final String[] STATUSES = {"active", "paused", "cancelled"};

    /*
     * Bounds (README, "Input bounds"): every stored string fits its column and the list indexes.
     * members_partner_list_idx carries search_text (lower first name, last name and email) in
     * every entry, and a B-tree entry holds at most 2,704 bytes: 100 + 100 + 254 characters are at
     * most 1,362 bytes of UTF-8 even after lower(). The rest are generous for what they hold.
     */
    public static final int NAME_MAX = 100;
    /** RFC 5321's longest usable address; also members_partner_email_idx's lower(email). */
    public static final int EMAIL_MAX = 254;
    public static final int PHONE_MAX = 50;
    public static final int ADDRESS_LINE_MAX = 200;
    /** A term longer than the longest searched field (the email) can match nothing. */
    public static final int SEARCH_MAX = EMAIL_MAX;
    /** Partner ids are the gateway's UUIDs; every members index leads with one. */
    public static final int PARTNER_ID_MAX = 64;

    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Pattern ZIP = Pattern.compile("\\d{5}(-\\d{4})?");

    /** Address object: street1, city, state, zipCode required; street2 optional (null accepted). */
    public static final ObjectSchema ADDRESS = address();

    /** {@code POST /v1/members}. {@code status} is not a create field: members start active. */
    public static final ObjectSchema CREATE = object()
            .field("firstName", string().min(1).max(NAME_MAX).singleLine())
            .field("lastName", string().min(1).max(NAME_MAX).singleLine())
            .field("email", string().email().max(EMAIL_MAX))
            .field("phone", string().max(PHONE_MAX).optional().nullable())
            .field("dateOfBirth", string().regex(DATE, "Invalid"))
            .field("state", string().length(2))
            .field("gender", enumOf("m", "f", "a", "u").optional())
            .field("address", address())
            .field("shippingAddress", address().optional().nullable());

    /** {@code PUT /v1/members/:id}: every field optional; phone and shippingAddress may be null to clear. */
    public static final ObjectSchema UPDATE = object()
            .field("firstName", string().min(1).max(NAME_MAX).singleLine().optional())
            .field("lastName", string().min(1).max(NAME_MAX).singleLine().optional())
            .field("email", string().email().max(EMAIL_MAX).optional())
            .field("phone", string().max(PHONE_MAX).optional().nullable())
            .field("dateOfBirth", string().regex(DATE, "Invalid").optional())
            .field("state", string().length(2).optional())
            .field("address", address().optional())
            .field("shippingAddress", address().optional().nullable())
            .field("status", enumOf(STATUSES).optional());

    /**
     * {@code POST /internal/members/find-or-create}: the inline member of {@code POST /v1/requests}
     * is the {@link #CREATE} shape, so its issues carry paths under {@code member}
     * (for example {@code ['member','shippingAddress','zipCode']}).
     */
    public static final ObjectSchema FIND_OR_CREATE = object()
            .field("partnerId", string().min(1).max(PARTNER_ID_MAX))
            .field("member", CREATE)
            .field("fenced", object()
                    .field("memberId", string())
                    .field("version", number().integer().min(1).max(Integer.MAX_VALUE))
                    .optional().nullable());

    /** {@code POST /internal/members/batch}: at most 100 ids; malformed ones are simply not found. */
    public static final ObjectSchema BATCH = object()
            .field("partnerId", string().min(1).max(PARTNER_ID_MAX))
            .field("memberIds", array(string()).max(100));

    /** {@code GET /internal/members/:id} query. */
    public static final ObjectSchema INTERNAL_QUERY = object()
            .field("partnerId", string().min(1).max(PARTNER_ID_MAX));

    /** The canonical 8-4-4-4-12 form, as platform-commons' {@code Ids} parses it. */
    private static final Pattern UUID_FORM =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    /** The billing export's largest page, and the page of an ask without {@code limit}. */
    public static final int BILLING_EXPORT_MAX = 1000;
    public static final int BILLING_EXPORT_DEFAULT = 500;

    /**
     * {@code GET /internal/members/billing-export} query: {@code after} a member id (a malformed one
     * is an issue, not an empty page: the caller would otherwise stop early), {@code limit} coerced
     * like {@link #LIST_QUERY}'s.
     */
    public static final ObjectSchema BILLING_EXPORT_QUERY = object()
            .field("partnerId", string().min(1).max(PARTNER_ID_MAX))
            .field("after", string().regex(UUID_FORM, "Invalid uuid").optional())
            .field("limit", number().coerce().integer().min(1).max(BILLING_EXPORT_MAX).optional());

    /** {@code GET /v1/members} query, strings coerced like Zod's {@code z.coerce.number()}. */
    public static final ObjectSchema LIST_QUERY = object()
            .field("page", number().coerce().integer().min(1).optional())
            .field("limit", number().coerce().integer().min(1).max(100).optional())
            .field("search", string().max(SEARCH_MAX).optional())
            .field("status", enumOf(STATUSES).optional());

    private MemberSchemas() {
    }

    private static ObjectSchema address() {
        return object()
                .field("street1", string().min(1).max(ADDRESS_LINE_MAX))
                .field("street2", string().max(ADDRESS_LINE_MAX).optional().nullable())
                .field("city", string().min(1).max(ADDRESS_LINE_MAX))
                .field("state", string().length(2))
                .field("zipCode", string().regex(ZIP, "Invalid"));
    }

    /**
     * Validates {@code tree} against {@code schema} (a {@code 400} with every issue at once when
     * it fails), then binds it to {@code type} (platform-commons {@code Binding}): the one step
     * from a request's JSON to the record the service takes. A valid tree that does not bind is a
     * mistake here, not in the call, so it is a {@code 500} (an {@code IllegalStateException}).
     * Unlike {@code Binding.bind}, an absent body is validated as absent, as members-service always
     * answered it.
     */
    static <T> T bind(ObjectSchema schema, JsonNode tree, Class<T> type) {
        schema.validate(tree);
        return Binding.bindValidated(tree, type);
    }
}
