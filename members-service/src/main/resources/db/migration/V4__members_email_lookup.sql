-- Inline member find-or-create (POST /internal/members/find-or-create): the partner's newest
-- member whose email matches case-insensitively. Not unique: POST /v1/members allows duplicate
-- emails; find-or-create serialises itself with an advisory lock instead (MemberService.findOrCreate).
CREATE INDEX members_partner_email_idx ON members (partner_id, lower(email), created_at DESC, id DESC);
