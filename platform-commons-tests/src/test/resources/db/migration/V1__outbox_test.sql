-- The canonical outbox DDL (docs/architecture.md, "Events"), as a service copies it.
create table outbox_events (
    id          bigserial   primary key,
    event_id    uuid        not null unique,
    topic       text        not null,
    message_key text        not null,
    payload     json        not null,
    created_at  timestamptz not null default now()
);

-- The state change the tests write beside their events.
create table probe_note (
    id   uuid primary key,
    text text not null
);
