-- The billing ledger (issue 19), fed only by events: care.events approvals give billing_start,
-- member.events give names, email and the status timeline. Every write is a merge that does not
-- depend on arrival order (names by their own timestamp, billing_start the earliest approval,
-- status changes keyed by their id), so duplicates and events out of order between topics end in
-- the same rows.

-- One member as billing knows it. Member ids are uuids unique across partners; partner_id is
-- written by the first event and every later merge requires it to match.
CREATE TABLE ledger_members (
    member_id     uuid        PRIMARY KEY,
    partner_id    text        NOT NULL,
    first_name    text,
    last_name     text,
    email         text,
    -- When the names above were true (the member event's occurredAt); an older event never overwrites them.
    names_at      timestamptz,
    -- The member's first approval: null until one is seen.
    billing_start timestamptz
);

-- GET /v1/billing reads a partner's billable members in billing_start order.
CREATE INDEX ledger_members_billable_idx ON ledger_members (partner_id, billing_start, member_id)
    WHERE billing_start IS NOT NULL;

-- A member's status timeline: the status they were created with (id = the member id) and every
-- status change (id = members-service's audit row id, statusChangeId on member.status_changed).
-- seq orders two changes of one millisecond as they arrived (one member's member.events stay in order).
CREATE TABLE ledger_status_changes (
    id         uuid        PRIMARY KEY,
    partner_id text        NOT NULL,
    member_id  uuid        NOT NULL,
    status     text        NOT NULL,
    at         timestamptz NOT NULL,
    seq        bigserial   NOT NULL
);

CREATE INDEX ledger_status_changes_member_idx ON ledger_status_changes (member_id, at, seq);

-- Envelope ids already applied, written in the transaction of the ledger change they made.
CREATE TABLE consumed_events (
    event_id    uuid        PRIMARY KEY,
    consumed_at timestamptz NOT NULL DEFAULT now()
);
