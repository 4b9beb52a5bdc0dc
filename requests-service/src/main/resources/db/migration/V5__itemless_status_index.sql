-- GET /v1/requests?status= counts and pages from two disjoint sets: line items with that status
-- (line_items_status_idx) and requests without items whose stored status it is (this index).
-- A request has at most one line item (UNIQUE (request_id, position), position always 0), so
-- counting items counts requests.
CREATE INDEX requests_itemless_status_idx ON requests (partner_id, status, created_at DESC, id DESC)
    WHERE item_count = 0;
