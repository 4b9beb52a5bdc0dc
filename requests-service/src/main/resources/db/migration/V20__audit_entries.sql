-- Audit entries (people-and-pages.md, "Audit"; platform-commons' audit package, docs/architecture.md, "Audit"):
-- one row per /ops change and per person's read, written in the change's transaction; ids only. The
-- same table in every auditing service. Kept six years (platform.audit.retention), pruned in batches.
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
