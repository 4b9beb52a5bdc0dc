-- Events (partner-extensions.md, "Events: read what happened, from a cursor"; README, Events): every
-- partner event intake accepts, whether or not a URL was set, read back from a per-partner cursor.

-- One row per partner, never deleted: the last sequence number handed out. The intake transaction
-- takes it with INSERT ... ON CONFLICT DO UPDATE ... RETURNING (an UPDATE ... RETURNING that also
-- creates the row of a partner's first event); the row lock it holds until commit serialises a
-- partner's writers, so sequence order is commit order and no reader sees n + 1 before n.
CREATE TABLE partner_event_counters (
    partner_id text   PRIMARY KEY,
    last_seq   bigint NOT NULL
);

CREATE TABLE events (
    id         uuid        PRIMARY KEY,              -- X-Webhook-Id (the delivery's id when one was made)
    partner_id text        NOT NULL,
    seq        bigint      NOT NULL,                 -- per partner, from partner_event_counters
    event_id   text        NOT NULL UNIQUE,          -- envelope id: the consumer's deduplication
    type       text        NOT NULL,                 -- the body's event name
    -- The webhook body exactly as the publisher serialised it (text: byte for byte).
    body       text        NOT NULL,
    created_at timestamptz NOT NULL
);

-- The cursor read: a partner's events in sequence order, after a sequence number (types filtered on the rows).
CREATE UNIQUE INDEX events_partner_seq_idx ON events (partner_id, seq);

-- Retention (retention.EventRecordRetention): the oldest first, in batches.
CREATE INDEX events_created_idx ON events (created_at);
