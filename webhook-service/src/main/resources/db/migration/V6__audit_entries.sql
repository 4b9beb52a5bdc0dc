-- Audit entries (issue #40; people-and-pages.md, "Audit"): one row per /ops change, written by
-- platform-commons' audit.AuditTrail in the change's own transaction. The same table in every auditing
-- service; GET /internal/audit reads it newest first (the index), the gateway merges every service's.
-- Kept six years, then deleted in batches by platform-commons' retention job (audit.AuditRetention).
create table audit_entries (
    id          uuid        primary key,
    at          timestamptz not null,
    actor_type  text        not null check (actor_type in ('person', 'operator_key', 'pharmacy', 'service')),
    actor_id    text        not null,
    action      text        not null,
    target_type text        not null,
    target_id   text,
    partner_id  text
);
create index audit_entries_newest on audit_entries (at desc, id desc);
