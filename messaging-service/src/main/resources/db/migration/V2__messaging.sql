-- Conversations, messages, attachments, the mail outbox and the consumed-event log of
-- messaging-service, and the transactional outbox of messaging.events.

-- One conversation per (partner, member, prescriber): the pair identifies it (partner-api.md,
-- Conversation); concurrent creates meet on the unique key.
create table conversations (
    id                     uuid        primary key,
    partner_id             text        not null,
    member_id              uuid        not null,
    member_name            text        not null,
    member_email           text        not null,
    prescriber_id          uuid        not null,
    prescriber_name        text        not null,
    prescriber_email       text        not null,
    last_message_at        timestamptz not null,
    last_message_preview   text        not null,
    last_message_sender_id text        not null,
    unread_by_member       integer     not null,
    unread_by_prescriber   integer     not null,
    created_at             timestamptz not null,
    updated_at             timestamptz not null,
    constraint conversations_pair_key unique (partner_id, member_id, prescriber_id)
);
-- A member's conversations, most recently active first (list, unread count).
create index conversations_member_idx on conversations (partner_id, member_id, last_message_at desc);

-- The bytes of stored files (attachment.PostgresFileStore): 1 MiB chunks, so neither an upload
-- nor a download ever holds a whole file in memory.
create table file_chunks (
    file_id uuid    not null,
    seq     integer not null,
    bytes   bytea   not null,
    primary key (file_id, seq)
);

create table attachments (
    id              uuid        primary key,
    -- The download link's secret: 256 random bits, base64url. The link itself is shown to the
    -- partner on every read of the message, so the token is kept, not only its hash.
    token           text        not null unique,
    partner_id      text        not null,
    conversation_id uuid        not null references conversations (id),
    file_id         uuid        not null,
    file_name       text        not null,
    content_type    text        not null,
    size_bytes      bigint      not null,
    created_at      timestamptz not null
);

create table messages (
    id               uuid        primary key,
    -- Insertion order: the order of a thread and of its cursor.
    seq              bigserial   not null unique,
    conversation_id  uuid        not null references conversations (id),
    sender_id        text        not null,
    sender_role      text        not null check (sender_role in ('patient', 'prescriber', 'system')),
    sender_name      text        not null,
    type             text        not null check (type in ('text', 'attachment', 'system', 'html')),
    text             text        not null,
    html             text,
    attachment_id    uuid        references attachments (id),
    handoff_category text        check (handoff_category in ('billing', 'orders', 'account', 'technical', 'other')),
    -- Patient messages: when a prescriber first read them (prescriber-read); fulfilment holds ask for
    -- unread ones.
    prescriber_read_at timestamptz,
    created_at       timestamptz not null
);
create index messages_thread_idx on messages (conversation_id, seq);
create index messages_unread_patient_idx on messages (conversation_id, created_at)
    where sender_role = 'patient' and prescriber_read_at is null;

-- Mails to prescribers, written in the transaction of the patient's message and sent by
-- mail.MailRelay after it; a row is deleted once the SMTP server accepted the mail.
create table mail_outbox (
    id              bigserial   primary key,
    recipient       text        not null,
    subject         text        not null,
    body            text        not null,
    attempts        integer     not null default 0,
    next_attempt_at timestamptz not null default now(),
    created_at      timestamptz not null default now()
);
create index mail_outbox_due_idx on mail_outbox (next_attempt_at, id);

-- care.events already turned into system messages (or found to need none): a redelivered event
-- meets its id here, in the transaction that would post the message again.
create table consumed_events (
    event_id    uuid        primary key,
    consumed_at timestamptz not null default now()
);

-- The transactional outbox of messaging.events (docs/architecture.md, "Events"), the DDL every
-- service copies, unchanged.
create table outbox_events (
    id          bigserial   primary key,        -- publish order
    event_id    uuid        not null unique,    -- the envelope id
    topic       text        not null,
    message_key text        not null,           -- aggregate id, the Kafka key
    payload     json        not null,           -- the envelope, published byte for byte
    created_at  timestamptz not null default now()
);
