-- Members whose delete requests-service agreed to (POST /internal/requests/member-deletions): the
-- member had no request then, and from then on no request is created for it. Written and read
-- under the member's advisory lock (member.MemberDeletions), which orders a delete's check against
-- a create's insert without any lock held across a call between the services.
CREATE TABLE deleted_members (
    partner_id text        NOT NULL,
    member_id  uuid        NOT NULL,
    deleted_at timestamptz NOT NULL,
    PRIMARY KEY (partner_id, member_id)
);
