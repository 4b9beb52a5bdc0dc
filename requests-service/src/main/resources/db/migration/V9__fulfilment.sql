-- Pharmacy fulfilment (partner-api.md, "Pharmacy transmission modes", send-to-pharmacy; operations-api.md,
-- "Partner settings" and "Pharmacy integration"). requests-service README, "Fulfilment".

-- PUT /ops/v1/partners/:id/fulfilment. No row: automatic (the default).
CREATE TABLE fulfilment_settings (
    partner_id text        PRIMARY KEY,
    -- automatic | deferred
    mode       text        NOT NULL CHECK (mode IN ('automatic', 'deferred')),
    updated_at timestamptz NOT NULL
);

-- A request created with the legacy single-drug body (top-level drugId), or whose one item a
-- request-level approval created: send-to-pharmacy falls back to its item for an unknown itemId.
ALTER TABLE requests ADD COLUMN legacy_single_drug boolean NOT NULL DEFAULT false;

ALTER TABLE line_items
    -- When the dispatcher should transmit it: set at approval (automatic: now; scheduled: the
    -- request's pharmacySendAt), moved on by a hold, cleared once sent or failed. Null: nothing due
    -- (deferred accounts, manual sends only).
    ADD COLUMN transmit_due_at            timestamptz,
    -- A transmission in flight: whoever set the claim (a replica's dispatcher, or a send-to-pharmacy
    -- call) transmits; nobody else may until the claim expires (a replica that died mid-flight).
    ADD COLUMN transmission_claim         uuid,
    ADD COLUMN transmission_claimed_until timestamptz,
    -- The last failure or hold, as answered ("Fulfillment held: <code>: <reason>"); for operators.
    ADD COLUMN transmission_error         text,
    ADD COLUMN transmission_failed_at     timestamptz,
    -- The first pharmacy update with shipped: true (item.shipped is sent once).
    ADD COLUMN shipped_at                 timestamptz;

-- The dispatcher's claim: due items, oldest first.
CREATE INDEX line_items_transmit_due_idx ON line_items (transmit_due_at) WHERE transmit_due_at IS NOT NULL;
-- Shipping updates name the pharmacy's order reference.
CREATE UNIQUE INDEX line_items_pharmacy_order_idx ON line_items (pharmacy_order_id) WHERE pharmacy_order_id IS NOT NULL;
-- Operators' list of failed transmissions.
CREATE INDEX line_items_transmission_failed_idx ON line_items (transmission_failed_at DESC)
    WHERE transmission_failed_at IS NOT NULL AND NOT pharmacy_sent;
