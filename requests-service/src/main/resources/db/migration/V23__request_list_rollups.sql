-- Cheaper reads of the V22 list counters (issue 44, round 2). A total over V22's day rows summed one row
-- per status and day of the partner's whole history: at 100,000 requests over two years, 2,912 rows on
-- 1,323 heap pages (each page holds every partner's rows of a few days), 2.8 ms of PostgreSQL CPU for
-- the unfiltered total, most of a page's cost (bench/results/requests-plans.txt). Two coarser levels of
-- the same counts, kept by the same triggers in the same transaction:
--   request_list_totals:       one row per partner and list status (no date filter: at most one row
--                              per status; ?status= one row);
--   request_list_month_counts: one row per partner, list status and UTC month (the 1st of the month):
--                              the whole months inside a date filter; only the days of the (at most
--                              two) partial months at its ends are read from request_list_counts.
-- RequestQueries.counterSum builds the sum.
--
-- Locks: a change takes its rows level by level, days, then months, then totals, and within each level
-- in key order (a change of status: the two keys of a level, lower first; equal keys, nothing to do), so
-- every writer takes counter rows in one global order and two moves cannot deadlock on them
-- (RequestListCountsTest).
CREATE TABLE request_list_totals (
    partner_id text   NOT NULL,
    status     text   NOT NULL,
    requests   bigint NOT NULL,
    PRIMARY KEY (partner_id, status)
) WITH (fillfactor = 70); -- room on each page for the updates of its rows (HOT: no index entry per change)

CREATE TABLE request_list_month_counts (
    partner_id text   NOT NULL,
    status     text   NOT NULL,
    month      date   NOT NULL,
    requests   bigint NOT NULL,
    PRIMARY KEY (partner_id, status, month)
) WITH (fillfactor = 70);

-- V22's function, now for all three levels (the triggers call it unchanged), each upsert a statement of
-- its own here: PL/pgSQL keeps their plans for the session, where V22's LANGUAGE sql helper planned its
-- INSERT again on every call (PostgreSQL 17). Measured with pgbench, one line item inserted per
-- transaction at 1M rows: the three levels inserted this way cost less per insert than V22's one day row
-- did through the helper. Either side may be absent (an insert, a delete, a request that gains or had no
-- item); the side that is there: {partner, status, created}, the delta -1 (old) or +1 (new).
CREATE OR REPLACE FUNCTION request_list_count_move(old_partner text, old_status text, old_created timestamptz,
                                                   new_partner text, new_status text, new_created timestamptz)
    RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    old_day   date := (old_created AT TIME ZONE 'UTC')::date;
    new_day   date := (new_created AT TIME ZONE 'UTC')::date;
    old_month date := date_trunc('month', old_day)::date;
    new_month date := date_trunc('month', new_day)::date;
    -- Per level, the key taken first (its date: a day, or a month's 1st) and its delta (0: nothing), then the other.
    first_partner text;
    first_status  text;
    first_day     date;
    first_delta   integer;
    second_partner text;
    second_status  text;
    second_day     date;
    second_delta   integer;
BEGIN
    -- Days.
    IF old_partner IS NOT NULL AND new_partner IS NOT NULL
       AND (old_partner, old_status, old_day) = (new_partner, new_status, new_day) THEN
        first_delta := 0;
        second_delta := 0;
    ELSIF old_partner IS NULL OR (new_partner IS NOT NULL
          AND (old_partner, old_status, old_day) > (new_partner, new_status, new_day)) THEN
        first_partner := new_partner; first_status := new_status; first_day := new_day; first_delta := 1;
        second_partner := old_partner; second_status := old_status; second_day := old_day; second_delta := -1;
    ELSE
        first_partner := old_partner; first_status := old_status; first_day := old_day; first_delta := -1;
        second_partner := new_partner; second_status := new_status; second_day := new_day; second_delta := 1;
    END IF;
    IF first_partner IS NOT NULL AND first_delta <> 0 THEN
        INSERT INTO request_list_counts AS c (partner_id, status, day, requests)
        VALUES (first_partner, first_status, first_day, first_delta)
        ON CONFLICT (partner_id, status, day) DO UPDATE SET requests = c.requests + excluded.requests;
    END IF;
    IF second_partner IS NOT NULL AND second_delta <> 0 THEN
        INSERT INTO request_list_counts AS c (partner_id, status, day, requests)
        VALUES (second_partner, second_status, second_day, second_delta)
        ON CONFLICT (partner_id, status, day) DO UPDATE SET requests = c.requests + excluded.requests;
    END IF;
    -- Months.
    IF old_partner IS NOT NULL AND new_partner IS NOT NULL
       AND (old_partner, old_status, old_month) = (new_partner, new_status, new_month) THEN
        first_delta := 0;
        second_delta := 0;
    ELSIF old_partner IS NULL OR (new_partner IS NOT NULL
          AND (old_partner, old_status, old_month) > (new_partner, new_status, new_month)) THEN
        first_partner := new_partner; first_status := new_status; first_day := new_month; first_delta := 1;
        second_partner := old_partner; second_status := old_status; second_day := old_month; second_delta := -1;
    ELSE
        first_partner := old_partner; first_status := old_status; first_day := old_month; first_delta := -1;
        second_partner := new_partner; second_status := new_status; second_day := new_month; second_delta := 1;
    END IF;
    IF first_partner IS NOT NULL AND first_delta <> 0 THEN
        INSERT INTO request_list_month_counts AS c (partner_id, status, month, requests)
        VALUES (first_partner, first_status, first_day, first_delta)
        ON CONFLICT (partner_id, status, month) DO UPDATE SET requests = c.requests + excluded.requests;
    END IF;
    IF second_partner IS NOT NULL AND second_delta <> 0 THEN
        INSERT INTO request_list_month_counts AS c (partner_id, status, month, requests)
        VALUES (second_partner, second_status, second_day, second_delta)
        ON CONFLICT (partner_id, status, month) DO UPDATE SET requests = c.requests + excluded.requests;
    END IF;
    -- Totals.
    IF old_partner IS NOT NULL AND new_partner IS NOT NULL AND (old_partner, old_status) = (new_partner, new_status) THEN
        first_delta := 0;
        second_delta := 0;
    ELSIF old_partner IS NULL OR (new_partner IS NOT NULL AND (old_partner, old_status) > (new_partner, new_status)) THEN
        first_partner := new_partner; first_status := new_status; first_delta := 1;
        second_partner := old_partner; second_status := old_status; second_delta := -1;
    ELSE
        first_partner := old_partner; first_status := old_status; first_delta := -1;
        second_partner := new_partner; second_status := new_status; second_delta := 1;
    END IF;
    IF first_partner IS NOT NULL AND first_delta <> 0 THEN
        INSERT INTO request_list_totals AS c (partner_id, status, requests)
        VALUES (first_partner, first_status, first_delta)
        ON CONFLICT (partner_id, status) DO UPDATE SET requests = c.requests + excluded.requests;
    END IF;
    IF second_partner IS NOT NULL AND second_delta <> 0 THEN
        INSERT INTO request_list_totals AS c (partner_id, status, requests)
        VALUES (second_partner, second_status, second_delta)
        ON CONFLICT (partner_id, status) DO UPDATE SET requests = c.requests + excluded.requests;
    END IF;
END
$$;

-- No longer called (request_list_count_move upserts itself).
DROP FUNCTION request_list_count_add(text, text, timestamptz, integer);

-- V22's recount, now of the three levels, under the same lock (the back-fill below, and bench/'s bulk
-- load with triggers off).
CREATE OR REPLACE FUNCTION request_list_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    LOCK TABLE requests, line_items IN SHARE MODE;
    DELETE FROM request_list_counts;
    DELETE FROM request_list_month_counts;
    DELETE FROM request_list_totals;
    INSERT INTO request_list_counts (partner_id, status, day, requests)
    SELECT partner_id, status, day, count(*)
    FROM (SELECT partner_id, status, (request_created_at AT TIME ZONE 'UTC')::date AS day FROM line_items
          UNION ALL
          SELECT partner_id, status, (created_at AT TIME ZONE 'UTC')::date FROM requests WHERE item_count = 0) AS listed
    GROUP BY partner_id, status, day;
    INSERT INTO request_list_month_counts (partner_id, status, month, requests)
    SELECT partner_id, status, date_trunc('month', day)::date, sum(requests)
    FROM request_list_counts GROUP BY partner_id, status, date_trunc('month', day)::date;
    INSERT INTO request_list_totals (partner_id, status, requests)
    SELECT partner_id, status, sum(requests) FROM request_list_counts GROUP BY partner_id, status;
END
$$;

-- The triggers of V22 call request_list_count_move: from here on they keep all three levels. No write
-- may slip between this back-fill and this migration's commit: the tables are locked against writes.
SELECT request_list_counts_rebuild();
