-- catalogue.events (issue 23): every change of a drug or of a partner's drug access is published through
-- the transactional outbox, so requests-service can keep a copy of the catalogue and stop calling
-- catalogue-service on every create. The outbox DDL is the one every service copies, unchanged
-- (docs/architecture.md, "Events"), with the traceparent column of the later migrations.
create table outbox_events (
    id          bigserial   primary key,        -- publish order
    event_id    uuid        not null unique,    -- the envelope id
    topic       text        not null,
    message_key text        not null,           -- aggregate id, the Kafka key
    payload     json        not null,           -- the envelope, published byte for byte
    created_at  timestamptz not null default now(),
    traceparent text
);

-- One counter for every change of the catalogue. A change takes the next value while it holds the row
-- lock of what it changes (the drug's row, the partner's version row), so for one drug or one partner a
-- higher version is always the later commit. A copy keeps, per drug and per partner, the version it holds
-- and applies an event or a snapshot row only when its version is higher: in any order, any number of
-- times, it ends at the catalogue's state.
create sequence catalogue_versions;

alter table drugs add column version bigint not null default nextval('catalogue_versions');

-- A partner's access version outlives its access row: opening the full catalogue deletes the row
-- (partner_drug_access), and the copy must still tell that change from an older restriction.
create table partner_access_versions (
    partner_id text   primary key,
    version    bigint not null
);

insert into partner_access_versions (partner_id, version)
select partner_id, nextval('catalogue_versions') from partner_drug_access order by partner_id;
