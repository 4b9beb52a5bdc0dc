-- The exact totals of GET /v1/members without a search read from counters instead of counting a
-- partner's members (issue 44: the count was most of a page's cost, and it grew with the partner).
-- One row per partner and status: the unfiltered total is the sum of a partner's (at most three) rows,
-- ?status= its one row. A search (with or without status) is still counted from the list indexes
-- (V6): no counter can know which members a term matches.
--
-- Triggers keep them, in the transaction of every write: whichever code writes (POST, PUT's status,
-- DELETE, an operator's SQL), the counter moves with the row or not at all. Each change is an increment
-- under the counter row's lock (INSERT ... ON CONFLICT DO UPDATE), so concurrent changes never lose one
-- (MemberListCountsTest). A change of status moves two rows, always in key order, so two such changes
-- cannot deadlock on them.
CREATE TABLE member_list_counts (
    partner_id text   NOT NULL,
    status     text   NOT NULL,
    members    bigint NOT NULL,
    PRIMARY KEY (partner_id, status)
) WITH (fillfactor = 70); -- room on each page for the updates of its rows (HOT: no index entry per change)

CREATE FUNCTION member_list_count_add(partner text, member_status text, delta integer) RETURNS void LANGUAGE sql AS $$
    INSERT INTO member_list_counts AS c (partner_id, status, members) VALUES (partner, member_status, delta)
    ON CONFLICT (partner_id, status) DO UPDATE SET members = c.members + excluded.members
$$;

CREATE FUNCTION members_list_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM member_list_count_add(NEW.partner_id, NEW.status, 1);
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM member_list_count_add(OLD.partner_id, OLD.status, -1);
    ELSIF (OLD.partner_id, OLD.status) > (NEW.partner_id, NEW.status) THEN
        PERFORM member_list_count_add(NEW.partner_id, NEW.status, 1);
        PERFORM member_list_count_add(OLD.partner_id, OLD.status, -1);
    ELSE
        PERFORM member_list_count_add(OLD.partner_id, OLD.status, -1);
        PERFORM member_list_count_add(NEW.partner_id, NEW.status, 1);
    END IF;
    RETURN NULL;
END
$$;

-- No write may slip between the back-fill and the triggers: members is locked against writes until
-- this migration commits (reads go on).
LOCK TABLE members IN SHARE MODE;

CREATE TRIGGER members_list_count_insert_delete AFTER INSERT OR DELETE ON members
    FOR EACH ROW EXECUTE FUNCTION members_list_count();
-- Hibernate's updates set every column: the WHEN keeps the function for real moves.
CREATE TRIGGER members_list_count_update AFTER UPDATE OF partner_id, status ON members
    FOR EACH ROW WHEN (OLD.partner_id IS DISTINCT FROM NEW.partner_id OR OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION members_list_count();

-- Recounts every counter from the rows, under the same lock: the back-fill below, and a repair after
-- writes made with triggers off (session_replication_role = replica).
CREATE FUNCTION member_list_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    LOCK TABLE members IN SHARE MODE;
    DELETE FROM member_list_counts;
    INSERT INTO member_list_counts (partner_id, status, members)
    SELECT partner_id, status, count(*) FROM members GROUP BY partner_id, status;
END
$$;

SELECT member_list_counts_rebuild();
