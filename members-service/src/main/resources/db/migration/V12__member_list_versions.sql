-- The exact total of a search, counted once per change of the partner's members (issue 44, round 2).
-- A broad term ("smith": 10,004 of a partner's 100,000 members; "mail.test", "jo") is counted over every
-- entry of the partner in members_partner_list_idx (V6): about 4,000 buffers and 19 ms of PostgreSQL CPU
-- per page, most of such a page's cost, and it grows with the partner. No counter can know which members
-- a term matches, but a count stays exact for as long as none of the partner's members changes in
-- what a list filters on (status, first name, last name, email; partner_id).
--
-- One row per partner: a version that every such change increments, in the transaction of the change
-- (a trigger: whichever code writes, POST, PUT, DELETE, an operator's SQL), so a reader sees the change
-- and the new version together or neither. MemberQueries keeps each search's count with the version it
-- was counted at (both read by one statement, one snapshot) and reuses the count while the version read
-- is the same: no change of the partner's members has committed since, so the count is still exact.
-- A partner without a row has version 0.
--
-- Each change is an increment under the row's lock (INSERT ... ON CONFLICT DO UPDATE): concurrent
-- changes never lose one (MemberSearchTotalsTest). Writes of one partner queue on its row for the rest
-- of their transaction, as creates and status changes already did on member_list_counts (V11); a move to
-- another partner takes its two rows in key order.
CREATE TABLE member_list_versions (
    partner_id text   NOT NULL PRIMARY KEY,
    version    bigint NOT NULL
) WITH (fillfactor = 70); -- room on each page for the updates of its rows (HOT: no index entry per change)

CREATE FUNCTION members_list_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    first_partner  text;
    second_partner text;
BEGIN
    IF TG_OP = 'INSERT' THEN
        first_partner := NEW.partner_id;
    ELSIF TG_OP = 'DELETE' THEN
        first_partner := OLD.partner_id;
    ELSE
        first_partner := least(OLD.partner_id, NEW.partner_id);
        second_partner := nullif(greatest(OLD.partner_id, NEW.partner_id), first_partner);
    END IF;
    INSERT INTO member_list_versions AS v (partner_id, version) VALUES (first_partner, 1)
    ON CONFLICT (partner_id) DO UPDATE SET version = v.version + 1;
    IF second_partner IS NOT NULL THEN
        INSERT INTO member_list_versions AS v (partner_id, version) VALUES (second_partner, 1)
        ON CONFLICT (partner_id) DO UPDATE SET version = v.version + 1;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER members_list_version_insert_delete AFTER INSERT OR DELETE ON members
    FOR EACH ROW EXECUTE FUNCTION members_list_version();
-- Hibernate's updates set every column: the WHEN keeps the function for changes a list can see.
CREATE TRIGGER members_list_version_update AFTER UPDATE OF partner_id, status, first_name, last_name, email ON members
    FOR EACH ROW WHEN (OLD.partner_id IS DISTINCT FROM NEW.partner_id OR OLD.status IS DISTINCT FROM NEW.status
                       OR OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name
                       OR OLD.email IS DISTINCT FROM NEW.email)
    EXECUTE FUNCTION members_list_version();
