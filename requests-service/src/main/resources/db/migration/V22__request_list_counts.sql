-- The exact totals of GET /v1/requests read from counters instead of counting a partner's rows
-- (issue 44: at 100,000 requests of a partner the count was most of a page's cost, and it grew with
-- the partner). One row per partner, list status and UTC day of creation:
--   status: what the status filter matches, the line item's own status (a request has at most one
--           item, V5), or for a request without items its stored status;
--   day:    the UTC calendar day of created_at, so the date filters (startDate, endDate: UTC days,
--           DateBounds) are sums over days; only a startDate with a time of day leaves a part of one
--           day, which RequestQueries counts exactly from the list indexes.
-- The unfiltered total is the sum over every status (each request is in exactly one: its item's or,
-- without an item, its own).
--
-- Triggers keep them, in the transaction of every write: whichever code writes (the create statement,
-- reviews, cancellations, fulfilment, the sandbox autopilot, a cascade from a deleted request, an
-- operator's SQL), the counter moves with the row or not at all. Each change is an increment under the
-- counter row's lock (INSERT ... ON CONFLICT DO UPDATE), so concurrent changes never lose one
-- (RequestListCountsTest). A change of status moves two rows, always in key order, so two such
-- changes cannot deadlock on them.
CREATE TABLE request_list_counts (
    partner_id text   NOT NULL,
    status     text   NOT NULL,
    day        date   NOT NULL,
    requests   bigint NOT NULL,
    PRIMARY KEY (partner_id, status, day)
) WITH (fillfactor = 70); -- room on each page for the updates of its rows (HOT: no index entry per change)

CREATE FUNCTION request_list_count_add(partner text, list_status text, created timestamptz, delta integer)
    RETURNS void LANGUAGE sql AS $$
    INSERT INTO request_list_counts AS c (partner_id, status, day, requests)
    VALUES (partner, list_status, (created AT TIME ZONE 'UTC')::date, delta)
    ON CONFLICT (partner_id, status, day) DO UPDATE SET requests = c.requests + excluded.requests
$$;

-- Moves one request from the old key to the new (either may be absent: an insert, a delete, a request
-- that gains or had no item), the lower key first.
CREATE FUNCTION request_list_count_move(old_partner text, old_status text, old_created timestamptz,
                                        new_partner text, new_status text, new_created timestamptz)
    RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF old_partner IS NOT NULL AND new_partner IS NOT NULL
       AND (old_partner, old_status, (old_created AT TIME ZONE 'UTC')::date)
           > (new_partner, new_status, (new_created AT TIME ZONE 'UTC')::date) THEN
        PERFORM request_list_count_add(new_partner, new_status, new_created, 1);
        PERFORM request_list_count_add(old_partner, old_status, old_created, -1);
        RETURN;
    END IF;
    IF old_partner IS NOT NULL THEN
        PERFORM request_list_count_add(old_partner, old_status, old_created, -1);
    END IF;
    IF new_partner IS NOT NULL THEN
        PERFORM request_list_count_add(new_partner, new_status, new_created, 1);
    END IF;
END
$$;

CREATE FUNCTION line_items_list_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM request_list_count_move(NULL, NULL, NULL, NEW.partner_id, NEW.status, NEW.request_created_at);
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM request_list_count_move(OLD.partner_id, OLD.status, OLD.request_created_at, NULL, NULL, NULL);
    ELSE
        PERFORM request_list_count_move(OLD.partner_id, OLD.status, OLD.request_created_at,
                                        NEW.partner_id, NEW.status, NEW.request_created_at);
    END IF;
    RETURN NULL;
END
$$;

-- A request counts here only while it has no item (item_count = 0); with one, its item counts.
CREATE FUNCTION requests_list_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM request_list_count_move(
        CASE WHEN TG_OP <> 'INSERT' AND OLD.item_count = 0 THEN OLD.partner_id END, OLD.status, OLD.created_at,
        CASE WHEN TG_OP <> 'DELETE' AND NEW.item_count = 0 THEN NEW.partner_id END, NEW.status, NEW.created_at);
    RETURN NULL;
END
$$;

-- No write may slip between the back-fill and the triggers: both tables are locked against writes
-- until this migration commits (reads go on).
LOCK TABLE requests, line_items IN SHARE MODE;

CREATE TRIGGER line_items_list_count_insert_delete AFTER INSERT OR DELETE ON line_items
    FOR EACH ROW EXECUTE FUNCTION line_items_list_count();
-- Hibernate's updates set every column: the WHEN keeps the function for real moves.
CREATE TRIGGER line_items_list_count_update AFTER UPDATE OF partner_id, status, request_created_at ON line_items
    FOR EACH ROW WHEN (OLD.partner_id IS DISTINCT FROM NEW.partner_id OR OLD.status IS DISTINCT FROM NEW.status
                       OR OLD.request_created_at IS DISTINCT FROM NEW.request_created_at)
    EXECUTE FUNCTION line_items_list_count();
-- Most requests are created with their item (item_count 1): their inserts and deletes skip the function.
CREATE TRIGGER requests_list_count_insert AFTER INSERT ON requests
    FOR EACH ROW WHEN (NEW.item_count = 0) EXECUTE FUNCTION requests_list_count();
CREATE TRIGGER requests_list_count_delete AFTER DELETE ON requests
    FOR EACH ROW WHEN (OLD.item_count = 0) EXECUTE FUNCTION requests_list_count();
CREATE TRIGGER requests_list_count_update AFTER UPDATE OF partner_id, status, created_at, item_count ON requests
    FOR EACH ROW WHEN ((OLD.item_count = 0 OR NEW.item_count = 0)
                       AND (OLD.partner_id IS DISTINCT FROM NEW.partner_id OR OLD.status IS DISTINCT FROM NEW.status
                            OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.item_count <> NEW.item_count))
    EXECUTE FUNCTION requests_list_count();

-- Recounts every counter from the rows, under the same lock: the back-fill below, and a repair after
-- writes made with triggers off (session_replication_role = replica: bench/'s bulk load).
CREATE FUNCTION request_list_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    LOCK TABLE requests, line_items IN SHARE MODE;
    DELETE FROM request_list_counts;
    INSERT INTO request_list_counts (partner_id, status, day, requests)
    SELECT partner_id, status, day, count(*)
    FROM (SELECT partner_id, status, (request_created_at AT TIME ZONE 'UTC')::date AS day FROM line_items
          UNION ALL
          SELECT partner_id, status, (created_at AT TIME ZONE 'UTC')::date FROM requests WHERE item_count = 0) AS listed
    GROUP BY partner_id, status, day;
END
$$;

SELECT request_list_counts_rebuild();
