-- A partner's ledger rebuilt beside the live one (issue 38): no call to an owner is made inside a
-- transaction or under a lock, so the rebuild stages each page it reads in a short transaction of its
-- own, and replaces the partner's live rows with what it staged in one last short transaction.

-- One running rebuild per partner: claimed in a short transaction, renewed (heartbeat_at) by every page
-- it stages, removed by the swap or on failure. A claim not renewed for billing.rebuild.claim-timeout
-- belongs to a rebuild that stopped (its replica killed): the next rebuild takes it over, and rebuild_id
-- tells the stopped one, should it wake, that its claim is gone.
CREATE TABLE ledger_rebuilds (
    partner_id   text        PRIMARY KEY,
    rebuild_id   uuid        NOT NULL,
    heartbeat_at timestamptz NOT NULL
);

-- What a running rebuild staged: the owners' pages, merged with the consumers' merges of the events
-- consumed while the claim stands (the same merges as ledger_members and ledger_status_changes, V3).
CREATE TABLE ledger_rebuild_members (
    member_id     uuid        PRIMARY KEY,
    partner_id    text        NOT NULL,
    first_name    text,
    last_name     text,
    email         text,
    names_at      timestamptz,
    billing_start timestamptz
);

CREATE INDEX ledger_rebuild_members_partner_idx ON ledger_rebuild_members (partner_id);

CREATE TABLE ledger_rebuild_status_changes (
    id         uuid        PRIMARY KEY,
    partner_id text        NOT NULL,
    member_id  uuid        NOT NULL,
    status     text        NOT NULL,
    at         timestamptz NOT NULL,
    -- Arrival order, kept when the points are copied into ledger_status_changes.
    seq        bigserial   NOT NULL
);

CREATE INDEX ledger_rebuild_status_changes_partner_idx ON ledger_rebuild_status_changes (partner_id, member_id);
