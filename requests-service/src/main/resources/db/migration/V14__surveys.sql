-- Intake surveys (operations-api.md, "Intake surveys"; partner-api.md, "Survey token" and
-- survey.completed). requests-service README, "Surveys (issue 20)".

-- A survey definition, named by the operator (a slug, like a drug id). Platform-wide: every
-- partner reads the same definitions. questions: the definition's questions in order
-- ([{id, text, type, options?, required, disqualifyWhen?}]), replaced as a whole on each PUT.
CREATE TABLE surveys (
    id          text        PRIMARY KEY,
    title       text        NOT NULL,
    questions   jsonb       NOT NULL,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
);

-- The drugs a survey covers, in the definition's order. A drug has at most one intake survey:
-- the primary key decides (a PUT naming a drug of another survey is refused with an issue).
CREATE TABLE survey_drugs (
    drug_id    text    PRIMARY KEY,
    survey_id  text    NOT NULL REFERENCES surveys (id) ON DELETE CASCADE,
    position   integer NOT NULL,
    UNIQUE (survey_id, position)
);

-- Returning-member tokens: a bearer credential, so only its SHA-256 (lowercase hex of the
-- token's UTF-8 bytes) is kept, as for booking links; looked up by it. One submission per token
-- (used_at, response_id).
CREATE TABLE survey_tokens (
    token_hash   text        PRIMARY KEY,
    partner_id   text        NOT NULL,
    member_id    uuid        NOT NULL,
    survey_id    text        NOT NULL REFERENCES surveys (id),
    expires_at   timestamptz NOT NULL,
    used_at      timestamptz,
    response_id  uuid,
    created_at   timestamptz NOT NULL
);

-- A submitted survey. answers: the answered questions in the definition's order, each with the
-- question's text as it was asked ([{questionId, question, yes | number | text}]), so the summary
-- written to a request's caseNotes never changes with a later edit of the survey. drug_ids: the
-- drugs the survey covered at submission (survey.completed's drugIds). member_id: the token's
-- member (refill), else the member of the request the response backs (initial), else null.
-- Holds patient data (answers, contact): never log it.
CREATE TABLE survey_responses (
    id                  uuid        PRIMARY KEY,
    partner_id          text        NOT NULL,
    survey_id           text        NOT NULL REFERENCES surveys (id),
    mode                text        NOT NULL CHECK (mode IN ('initial', 'refill')),
    member_id           uuid,
    answers             jsonb       NOT NULL,
    contact_first_name  text,
    contact_last_name   text,
    contact_email       text,
    qualified           boolean     NOT NULL,
    drug_ids            jsonb       NOT NULL,
    -- The request it backs: at most one (set once, under the condition that it is still null, in
    -- the request's inserting transaction). A deleted request frees it.
    request_id          uuid        UNIQUE REFERENCES requests (id) ON DELETE SET NULL,
    linked_at           timestamptz,
    created_at          timestamptz NOT NULL
);
