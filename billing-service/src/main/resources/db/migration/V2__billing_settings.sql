-- PUT /ops/v1/partners/:id/billing (operations-api.md, "Partner settings", owned here). No row: billing is not
-- enabled, and GET /v1/billing answers 404 Billing not enabled for this partner.
CREATE TABLE billing_settings (
    partner_id      text        PRIMARY KEY,
    enabled         boolean     NOT NULL,
    -- monthly | weekly
    cycle           text        NOT NULL CHECK (cycle IN ('monthly', 'weekly')),
    -- 1 Monday .. 7 Sunday; a weekly cycle only.
    weekday         integer     CHECK (weekday BETWEEN 1 AND 7),
    rate_per_member numeric     NOT NULL CHECK (rate_per_member >= 0),
    updated_at      timestamptz NOT NULL,
    CHECK ((cycle = 'weekly') = (weekday IS NOT NULL))
);
