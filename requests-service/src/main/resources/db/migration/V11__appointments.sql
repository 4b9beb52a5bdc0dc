-- Appointments booked through a consultation's booking link, and their reminders
-- (operations-api.md, "Consultations"; partner-api.md, appointment events). requests-service README, "Appointments".

CREATE TABLE appointments (
    id                  uuid        PRIMARY KEY,
    partner_id          text        NOT NULL,
    request_id          uuid        NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
    -- Null for a consultation asked on a request without items.
    item_id             uuid        REFERENCES line_items (id) ON DELETE CASCADE,
    -- One appointment per booking link: a used link books nothing more (the unique index decides
    -- between two bookings at once).
    consultation_id     uuid        NOT NULL UNIQUE REFERENCES consultations (id) ON DELETE CASCADE,
    member_id           uuid        NOT NULL,
    prescriber_id       uuid        NOT NULL,
    -- booked | cancelled | held | no_show
    status              text        NOT NULL CHECK (status IN ('booked', 'cancelled', 'held', 'no_show')),
    start_time          timestamptz NOT NULL,
    end_time            timestamptz NOT NULL,
    duration_minutes    integer     NOT NULL,
    -- An IANA zone id the JDK knows.
    timezone            text        NOT NULL,
    cancelled_by        text        CHECK (cancelled_by IN ('patient', 'prescriber')),
    cancellation_reason text,
    -- As members-service and the prescriber record gave them at the last booking or rescheduling:
    -- the reminders carry them without asking members-service from the reminder job.
    patient_name        text,
    patient_email       text,
    prescriber_name     text,
    created_at          timestamptz NOT NULL,
    updated_at          timestamptz NOT NULL
);

CREATE INDEX appointments_request_idx ON appointments (request_id, created_at);

-- One row per configured offset before the start it was computed for; offsets already passed at
-- booking or rescheduling get no row. A reschedule or cancel deletes the unsent rows.
CREATE TABLE appointment_reminders (
    id               bigserial   PRIMARY KEY,
    appointment_id   uuid        NOT NULL REFERENCES appointments (id) ON DELETE CASCADE,
    offset_seconds   bigint      NOT NULL,
    start_time       timestamptz NOT NULL,
    due_at           timestamptz NOT NULL,
    sent_at          timestamptz,
    UNIQUE (appointment_id, offset_seconds, start_time)
);

-- The reminder job's claim: unsent reminders, soonest first.
CREATE INDEX appointment_reminders_due_idx ON appointment_reminders (due_at) WHERE sent_at IS NULL;
