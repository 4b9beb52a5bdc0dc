-- Sandbox autopilot (partner-extensions.md, "Sandbox simulation"; requests-service README, "Sandbox simulation"):
-- a request created in sandbox with `simulation` is taken through its steps by the platform itself. The row is
-- written by the create's own statement (request.NewRequestRows), so a committed request always has its plan,
-- and a restart loses nothing. simulation.Autopilot claims due rows with FOR UPDATE SKIP LOCKED, commits the
-- claim (a lease), acts with no transaction open, then records the step.

CREATE TABLE sandbox_autopilots (
    request_id    uuid        PRIMARY KEY REFERENCES requests (id) ON DELETE CASCADE,
    partner_id    text        NOT NULL,
    outcome       text        NOT NULL CHECK (outcome IN ('approve', 'deny', 'consultation')),
    ship          boolean     NOT NULL,
    -- The index of the next step of the outcome's plan (simulation.AutopilotPlan); done once past the last.
    next_step     integer     NOT NULL DEFAULT 0,
    due_at        timestamptz NOT NULL,
    -- The claim of the replica acting on the row and until when it holds it; a claim past its lease is
    -- taken again (the replica died or was stopped mid-step).
    claim         uuid,
    claimed_until timestamptz,
    -- Set when the plan ended: every step taken, or a step the request's state no longer allowed.
    finished_at   timestamptz,
    -- What the last step came to: the action taken, or why it was skipped (no patient data).
    last_result   text,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL
);

-- The scheduler's read: unfinished rows by due time.
CREATE INDEX sandbox_autopilots_due_idx ON sandbox_autopilots (due_at) WHERE finished_at IS NULL;
