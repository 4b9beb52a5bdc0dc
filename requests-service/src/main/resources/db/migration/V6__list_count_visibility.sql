-- GET /v1/requests counts its matches from index-only scans (requests_partner_created_idx,
-- line_items_status_idx, requests_itemless_status_idx). Those skip the heap only for pages the
-- visibility map marks all-visible, and PostgreSQL's default autovacuum thresholds (20 % of the
-- table changed, or inserted) leave a busy table's newest pages unmarked for long stretches: with
-- 1,000,000 rows a quarter of a partner's entries then cost a heap visit each (bench/requests.sh).
-- Vacuum these two tables after 1 % of changes instead; a vacuum of pages already marked is cheap.
ALTER TABLE requests SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_insert_scale_factor = 0.01);
ALTER TABLE line_items SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_insert_scale_factor = 0.01);
