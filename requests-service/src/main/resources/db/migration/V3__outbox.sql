-- The transactional outbox of care.events (docs/architecture.md, "Events"): rows are written in
-- the transaction of the request change and deleted by platform-commons' OutboxRelay once Kafka
-- acknowledged them. The DDL is the one every service copies, unchanged.
create table outbox_events (
    id          bigserial   primary key,        -- publish order
    event_id    uuid        not null unique,    -- the envelope id
    topic       text        not null,
    message_key text        not null,           -- aggregate id, the Kafka key
    payload     json        not null,           -- the envelope, published byte for byte
    created_at  timestamptz not null default now()
);
