-- Prescriber availability and one appointment at a time (issue 39; people-and-pages.md, "Availability and
-- slots"; requests-service README, "Availability and slots").

-- btree_gist gives uuid an equality operator class under GiST, so one exclusion constraint can say "the same
-- prescriber" and "overlapping times" together. A trusted extension since PostgreSQL 13: the database's owner
-- may create it without superuser rights.
CREATE EXTENSION IF NOT EXISTS btree_gist;

-- A prescriber's weekly hours: one row per prescriber (their IANA zone and slot length), replaced as a whole by
-- PUT /ops/v1/prescribers/:id/availability.
CREATE TABLE prescriber_availability (
    prescriber_id uuid        PRIMARY KEY REFERENCES prescribers (id) ON DELETE CASCADE,
    -- An IANA zone id the JDK has rules for; the weekly hours are wall-clock times in it.
    timezone      text        NOT NULL,
    slot_minutes  integer     NOT NULL CHECK (slot_minutes IN (15, 20, 30, 45, 60)),
    updated_at    timestamptz NOT NULL
);

-- Its intervals: minutes after local midnight, [start_minute, end_minute), end_minute 1440 for "24:00".
-- Intervals of one weekday never overlap (the service refuses such a body).
CREATE TABLE prescriber_weekly_hours (
    id            bigserial PRIMARY KEY,
    prescriber_id uuid      NOT NULL REFERENCES prescriber_availability (prescriber_id) ON DELETE CASCADE,
    -- ISO: 1 = Monday ... 7 = Sunday.
    weekday       integer   NOT NULL CHECK (weekday BETWEEN 1 AND 7),
    start_minute  integer   NOT NULL CHECK (start_minute BETWEEN 0 AND 1439),
    end_minute    integer   NOT NULL CHECK (end_minute BETWEEN 1 AND 1440),
    CHECK (start_minute < end_minute),
    UNIQUE (prescriber_id, weekday, start_minute)
);

-- One prescriber never has two appointments that overlap, whichever replica or call books them: the database
-- decides. A cancelled appointment frees its time; held and no-show ones keep theirs. Half-open ranges, so an
-- appointment may start when the previous one ends. A losing insert or update fails with SQLState 23P01, which
-- the service answers 409 {"error":"Slot no longer available"} (appointment.Appointments).
--
-- Existing rows that overlap make this statement fail, and the migration with it (nothing is changed). An
-- operator finds them with:
--   SELECT a.prescriber_id, a.id, a.start_time, a.end_time, b.id, b.start_time, b.end_time
--   FROM appointments a JOIN appointments b
--     ON b.prescriber_id = a.prescriber_id AND b.id > a.id
--    AND b.status <> 'cancelled' AND tstzrange(a.start_time, a.end_time, '[)') && tstzrange(b.start_time, b.end_time, '[)')
--   WHERE a.status <> 'cancelled'
--   ORDER BY a.prescriber_id, a.start_time;
-- and resolves each pair (reschedule or cancel one) before the service is started again.
ALTER TABLE appointments ADD CONSTRAINT appointments_no_overlap
    EXCLUDE USING gist (prescriber_id WITH =, tstzrange(start_time, end_time, '[)') WITH &&)
    WHERE (status <> 'cancelled');
