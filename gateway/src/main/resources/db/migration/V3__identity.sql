-- People and pharmacies on /ops (issue #40; docs/security.md, "People on /ops"): local accounts,
-- their roles and sessions, the sign-in failures that limit guessing, and pharmacy credentials.
-- Tokens and keys are stored only as SHA-256 (hex), passwords only as Argon2id (a PHC string).

CREATE TABLE accounts (
    id            uuid        PRIMARY KEY,
    email         text        NOT NULL,
    name          text        NOT NULL,
    prescriber_id uuid,
    password_hash text        NOT NULL,
    created_at    timestamptz NOT NULL,
    deleted_at    timestamptz
);

-- One live account per email, compared case-insensitively; a deleted account frees its email.
CREATE UNIQUE INDEX accounts_email_lower_key ON accounts (lower(email)) WHERE deleted_at IS NULL;
-- One live account per prescriber: a prescriber signs as one person.
CREATE UNIQUE INDEX accounts_prescriber_key ON accounts (prescriber_id) WHERE deleted_at IS NULL;

CREATE TABLE account_roles (
    account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    role       text NOT NULL CHECK (role IN ('admin', 'prescriber', 'support')),
    PRIMARY KEY (account_id, role)
);

CREATE TABLE sessions (
    token_hash char(64)    PRIMARY KEY,
    account_id uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    ended_at   timestamptz
);

CREATE INDEX sessions_account ON sessions (account_id);
CREATE INDEX sessions_expires_at ON sessions (expires_at);

-- One row per failed (or still running) sign-in: the SHA-256 of the lower-cased email, never the email.
CREATE TABLE sign_in_failures (
    id         uuid        PRIMARY KEY,
    email_hash char(64)    NOT NULL,
    at         timestamptz NOT NULL
);

CREATE INDEX sign_in_failures_email_at ON sign_in_failures (email_hash, at);
CREATE INDEX sign_in_failures_at ON sign_in_failures (at);

CREATE TABLE pharmacy_credentials (
    id          uuid        PRIMARY KEY,
    pharmacy_id text        NOT NULL,
    key_hash    char(64)    NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL,
    revoked_at  timestamptz
);

CREATE INDEX pharmacy_credentials_pharmacy ON pharmacy_credentials (pharmacy_id);
