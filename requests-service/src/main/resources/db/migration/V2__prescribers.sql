-- Prescribers: the clinicians who review requests in the prescriber console.
-- The email is stored exactly as given; one prescriber per email address, compared
-- case-insensitively. The unique index, not a prior lookup, is what decides between
-- concurrent creates with the same email (the service answers the loser with a 400).
CREATE TABLE prescribers (
    id         uuid        PRIMARY KEY,
    name       text        NOT NULL,
    email      text        NOT NULL,
    created_at timestamptz NOT NULL
);

CREATE UNIQUE INDEX prescribers_email_lower_key ON prescribers (lower(email));
