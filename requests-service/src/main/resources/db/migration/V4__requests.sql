-- Requests, their line items, history and prescription records (partner-api.md, "Request",
-- "Line item", "History entry", "Prescription record"). Every row carries partner_id and every
-- query filters on it: another partner's request is never seen.

CREATE TABLE requests (
    id                 uuid        PRIMARY KEY,
    partner_id         text        NOT NULL,
    member_id          uuid        NOT NULL,
    -- The member as at creation, for lists (single reads show the live member record).
    member_name        text,
    member_email       text,
    member_dob         text,
    member_state       text,
    -- pending | approved | denied | partial | completed | cancelled (decisions.md, "Requests")
    status             text        NOT NULL,
    -- True while a consultation asked on a request without items is outstanding.
    consultation_open  boolean     NOT NULL DEFAULT false,
    case_notes         text,
    survey_response_id text,
    pharmacy_send_at   timestamptz,
    idempotency_key    text,
    provider_id        text,
    -- The prescriber the request is assigned to (claim, or the first prescriber who acts).
    prescriber_id      uuid,
    -- Legacy mirrors for a request without items (consultation, or the legacy single-drug body).
    drug_id            text,
    drug_name          text,
    dosage             text,
    item_count         integer     NOT NULL DEFAULT 0,
    created_at         timestamptz NOT NULL,
    updated_at         timestamptz NOT NULL
);

-- Idempotency keys are scoped to the partner and never expire; the index decides between
-- concurrent creates with one key.
CREATE UNIQUE INDEX requests_idempotency_key ON requests (partner_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
CREATE INDEX requests_partner_created_idx ON requests (partner_id, created_at DESC, id DESC);
CREATE INDEX requests_partner_member_idx ON requests (partner_id, member_id, created_at DESC);
-- The review queue: undecided requests, oldest first.
CREATE INDEX requests_queue_idx ON requests (created_at, id) WHERE status = 'pending';

CREATE TABLE line_items (
    id                     uuid        PRIMARY KEY,
    request_id             uuid        NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
    partner_id             text        NOT NULL,
    position               integer     NOT NULL,
    -- Copied from the request so the status filter of GET /v1/requests pages on one index.
    request_created_at     timestamptz NOT NULL,
    drug_id                text,
    drug_name              text,
    dosage                 text,
    requested_sku_id       text,
    requested_sku          text,
    requested_dose_value   numeric,
    requested_dose_unit    text,
    -- The SKU a prescriber chose before approving (dosage update).
    selected_sku_id        text,
    -- pending | call_requested | approved | denied | cancelled | completed
    status                 text        NOT NULL,
    prescriber_id          uuid,
    pharmacy_id            text,
    pharmacy_method        text,
    pharmacy_sent          boolean     NOT NULL DEFAULT false,
    pharmacy_sent_at       timestamptz,
    pharmacy_order_id      text,
    tracking_number        text,
    ship_carrier           text,
    delivery_status        text,
    created_at             timestamptz NOT NULL,
    updated_at             timestamptz NOT NULL,
    UNIQUE (request_id, position)
);

CREATE INDEX line_items_status_idx ON line_items (partner_id, status, request_created_at DESC, request_id);

-- History of a request; item_id set for entries about one line item.
CREATE TABLE history_entries (
    id         bigserial   PRIMARY KEY,
    request_id uuid        NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
    item_id    uuid,
    action     text        NOT NULL,
    by_actor   text        NOT NULL,
    reason     text,
    at         timestamptz NOT NULL
);

CREATE INDEX history_entries_request_idx ON history_entries (request_id, id);

-- Frozen at signing: the clinical snapshot is written once (clinical) and never updated.
CREATE TABLE prescription_records (
    id                  uuid        PRIMARY KEY,
    partner_id          text        NOT NULL,
    request_id          uuid        NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
    line_item_id        uuid        REFERENCES line_items (id) ON DELETE CASCADE,
    member_id           uuid        NOT NULL,
    prescriber_id       uuid        NOT NULL,
    pharmacy_id         text,
    drug_id             text,
    supersedes_id       uuid,
    renewal_of_id       uuid,
    clinical            jsonb       NOT NULL,
    -- issued | sent_to_pharmacy | filled | refilled | cancelled | voided | expired
    status              text        NOT NULL,
    void_reason         text,
    pharmacy_order_id   text,
    pharmacy_product_id integer,
    issued_at           timestamptz NOT NULL,
    expiration_date     text,
    sent_to_pharmacy_at timestamptz,
    filled_at           timestamptz,
    cancelled_at        timestamptz,
    voided_at           timestamptz,
    created_at          timestamptz NOT NULL,
    updated_at          timestamptz NOT NULL
);

CREATE INDEX prescription_records_request_idx ON prescription_records (request_id, created_at);

-- Booking links issued when a prescriber asks for a consultation (appointments come later).
CREATE TABLE consultations (
    id          uuid        PRIMARY KEY,
    partner_id  text        NOT NULL,
    request_id  uuid        NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
    item_id     uuid        REFERENCES line_items (id) ON DELETE CASCADE,
    prescriber_id uuid      NOT NULL,
    token       text        NOT NULL UNIQUE,
    expires_at  timestamptz NOT NULL,
    created_at  timestamptz NOT NULL
);
