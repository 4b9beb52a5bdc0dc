-- A member's version (issue 23): every change moves it by one, new members start at 1. requests-service
-- keeps a copy of each member for POST /v1/requests and uses it only when the copy's version is at least
-- the fence members-service sent it before committing an update (README, "Version and fence"), so an
-- answered PUT is never followed by a create from a stale copy. A constant default: PostgreSQL 11+ adds
-- the column without rewriting the table, and existing members read as version 1.
ALTER TABLE members ADD COLUMN version bigint NOT NULL DEFAULT 1;
