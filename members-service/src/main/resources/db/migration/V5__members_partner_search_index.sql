-- Searches are always within one partner: a trigram index that leads with the partner reads only
-- that partner's matches, where members_search_trgm_idx matched the term across every partner and
-- rechecked them all (bench/members-list.sh: "smith" 54 ms of SQL before, 26 ms after).
CREATE EXTENSION IF NOT EXISTS btree_gin;

CREATE INDEX members_partner_search_trgm_idx ON members
    USING gin (partner_id, lower(first_name || ' ' || last_name || ' ' || email) gin_trgm_ops);

DROP INDEX members_search_trgm_idx;
