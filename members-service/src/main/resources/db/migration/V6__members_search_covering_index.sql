-- Searches count their matches without reading the table (issue 4, bench/members-list.sh).
--
-- The exact total of a common term ("smith": 10,004 of a partner's 100,000 members) was a trigram
-- bitmap scan that then re-read every matching row from the table to recheck the LIKE: thousands of
-- scattered heap pages, most not in shared_buffers (smith: 8,188 heap blocks, 42 ms), and a
-- two-letter term, which has no trigram, filtered all of the partner's rows on the heap.
--
-- search_text holds the three searched fields, each lowered, joined by U+001F (the ASCII unit
-- separator). A term without that character matches search_text exactly when it is a substring of
-- one of the fields: a match cannot span a separator, so "a term spanning two fields is not a
-- match" still holds. MemberService rechecks the fields one by one for a term that contains it.
-- Stored, so the list index below can carry it; PostgreSQL keeps it current on every insert and
-- update (Hibernate never writes it: the Member entity does not map it).
ALTER TABLE members ADD COLUMN search_text text GENERATED ALWAYS AS
    (lower(first_name) || E'\x1F' || lower(last_name) || E'\x1F' || lower(email)) STORED;

-- Lists, counts and common terms: newest first within a partner, carrying what the filters read
-- (INCLUDE takes columns, not expressions: hence the stored column), so counting a partner's
-- matches is an index-only scan of short index tuples for any term length or status, and a page's
-- ids come from the same scan before 20 rows are fetched by primary key. Replaces
-- members_partner_created_idx (V3), whose key it repeats.
CREATE INDEX members_partner_list_idx ON members (partner_id, created_at DESC, id DESC)
    INCLUDE (status, search_text);

-- Rare terms: the trigram index on the same column finds a handful of rows faster than scanning the
-- partner's list index (quackenbush: 11 rows). Both indexes serve one condition,
-- search_text LIKE pattern, so the planner picks by the term's estimated matches; a term shorter
-- than a trigram gets nothing from this index and the planner costs it so.
CREATE INDEX members_partner_search_text_trgm_idx ON members
    USING gin (partner_id, search_text gin_trgm_ops);

DROP INDEX members_partner_search_trgm_idx;
DROP INDEX members_partner_created_idx;

-- An index-only scan reads the table for every entry on a page the visibility map does not mark
-- all-visible: pages written since the last vacuum. By default autovacuum waits for 20% of the
-- table to be inserted or changed, so on a large table the newest members (every list's first
-- page, and part of every count) would stay on such pages for long. 1% keeps those vacuums small
-- and frequent; a vacuum after inserts only visits the pages not yet all-visible.
ALTER TABLE members SET (autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_vacuum_scale_factor = 0.01);
