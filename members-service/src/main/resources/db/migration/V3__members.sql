-- Members of each partner, with their home address and optional shipping address, and the audit
-- of partner-made status changes. (V2 is reserved for the outbox table.)

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE members (
    id                     uuid        PRIMARY KEY,
    partner_id             text        NOT NULL,
    first_name             text        NOT NULL,
    last_name              text        NOT NULL,
    email                  text        NOT NULL,
    phone                  text,
    date_of_birth          text        NOT NULL CHECK (date_of_birth ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
    state                  text        NOT NULL CHECK (char_length(state) = 2),
    status                 text        NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'cancelled')),
    gender                 text        CHECK (gender IN ('m', 'f', 'a', 'u')),
    street1                text        NOT NULL,
    street2                text,
    city                   text        NOT NULL,
    address_state          text        NOT NULL CHECK (char_length(address_state) = 2),
    zip_code               text        NOT NULL,
    -- All five shipping columns are null together (no shipping address) or street1, city, state
    -- and zip code are all set.
    shipping_street1       text,
    shipping_street2       text,
    shipping_city          text,
    shipping_state         text,
    shipping_zip_code      text,
    created_at             timestamptz NOT NULL,
    updated_at             timestamptz NOT NULL,
    CHECK ((shipping_street1 IS NULL AND shipping_street2 IS NULL AND shipping_city IS NULL
            AND shipping_state IS NULL AND shipping_zip_code IS NULL)
        OR (shipping_street1 IS NOT NULL AND shipping_city IS NOT NULL
            AND shipping_state IS NOT NULL AND shipping_zip_code IS NOT NULL))
);

-- Lists: newest first within a partner (id breaks ties so pages are stable).
CREATE INDEX members_partner_created_idx ON members (partner_id, created_at DESC, id DESC);

-- Status filter: page 1 of one status reads the index in order, no sort.
CREATE INDEX members_partner_status_created_idx ON members (partner_id, status, created_at DESC, id DESC);

-- Search: case-insensitive substring of first name, last name or email. The query filters on this
-- one expression (trigram GIN, usable by LIKE '%term%') and then re-checks the three fields
-- exactly, so a term spanning two fields is not a match. The expression must stay identical to
-- MemberService.SEARCH_TEXT for the planner to use the index.
CREATE INDEX members_search_trgm_idx ON members
    USING gin (lower(first_name || ' ' || last_name || ' ' || email) gin_trgm_ops);

CREATE TABLE member_status_audit (
    id              uuid        PRIMARY KEY,
    -- No foreign key: the audit outlives a deleted member.
    member_id       uuid        NOT NULL,
    partner_id      text        NOT NULL,
    previous_status text        NOT NULL,
    new_status      text        NOT NULL,
    changed_at      timestamptz NOT NULL
);

CREATE INDEX member_status_audit_member_idx ON member_status_audit (member_id, changed_at);
