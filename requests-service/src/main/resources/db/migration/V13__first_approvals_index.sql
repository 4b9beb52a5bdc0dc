-- Billing-service's rebuild asks each member's first approval (GET /internal/requests/first-approvals,
-- MemberRequests.FIRST_APPROVALS): the earliest history entry with action 'approved' of the partner's
-- requests of each member. The page walks the partner's requests in member order
-- (requests_partner_member_idx) and reads each request's approvals from this index alone: the few
-- 'approved' entries of a request and their time, without visiting history_entries' other rows
-- (creation, claims, notes, shipping updates).
CREATE INDEX history_entries_approved_idx ON history_entries (request_id, at) WHERE action = 'approved';
