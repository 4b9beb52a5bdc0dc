-- Webhook settings per partner, deliveries with their attempts, and events dropped while no URL was set.

CREATE TABLE webhook_settings (
    partner_id       text        PRIMARY KEY,
    -- null: delivery is off (events are dropped and recorded in dropped_events).
    url              text,
    -- AES-256-GCM: 12-byte nonce || ciphertext || 16-byte tag, the partner id as associated data
    -- (webhook.secret-encryption-key). Null until a URL is first saved; never null afterwards.
    secret_encrypted bytea,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL
);

CREATE TABLE deliveries (
    id              uuid        PRIMARY KEY,            -- X-Webhook-Id
    seq             bigserial   NOT NULL,               -- insert order: breaks created_at ties in the log
    partner_id      text        NOT NULL,
    event_id        text        NOT NULL UNIQUE,        -- envelope id: the consumer's deduplication
    event           text        NOT NULL,
    -- The partner payload exactly as signed and sent (json keeps the text byte for byte; jsonb would not).
    body            text        NOT NULL,
    signed_at       text        NOT NULL,               -- X-Webhook-Timestamp, unix seconds
    signature       text        NOT NULL,               -- X-Webhook-Signature, sha256=<hex>
    status          text        NOT NULL CHECK (status IN ('delivered', 'retrying', 'failed')),
    attempt_count   integer     NOT NULL DEFAULT 0,     -- every attempt ever made (rows in delivery_attempts)
    round_attempts  integer     NOT NULL DEFAULT 0,     -- attempts since creation or the last redelivery
    next_attempt_at timestamptz,                        -- set while retrying
    lease_until     timestamptz,                        -- a replica is attempting it until then
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);

-- The dispatcher's poll: due deliveries in order, only the retrying ones.
CREATE INDEX deliveries_due_idx ON deliveries (next_attempt_at) WHERE status = 'retrying';

-- The delivery log: a partner's deliveries newest first (optionally one event).
CREATE INDEX deliveries_partner_created_idx ON deliveries (partner_id, created_at DESC, seq DESC);

CREATE TABLE delivery_attempts (
    id          bigserial   PRIMARY KEY,
    delivery_id uuid        NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    at          timestamptz NOT NULL,
    http_status integer,
    error       text,
    duration_ms integer     NOT NULL
);

CREATE INDEX delivery_attempts_delivery_idx ON delivery_attempts (delivery_id, id);

CREATE TABLE dropped_events (
    event_id   text        PRIMARY KEY,
    partner_id text        NOT NULL,
    event      text        NOT NULL,
    at         timestamptz NOT NULL
);

CREATE INDEX dropped_events_partner_idx ON dropped_events (partner_id, at DESC);
