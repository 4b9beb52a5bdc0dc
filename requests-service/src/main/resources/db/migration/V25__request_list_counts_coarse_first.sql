-- The list counters (V22 days, V23 months and totals): each change takes its rows coarse first (totals, then months,
-- then days; within a level its two keys in key order, as before), and V24's partner lock is gone.
--
-- V24 made every counter change take its partner's advisory lock first, so that no two writers could deadlock on
-- counter rows. It cost creates more than the noise (pgbench, a request with its item inserted per transaction on
-- ./stack's server, 16 clients, one sitting: one partner 4,780-5,000 creates/s with the lock, 7,000 without it, 6,860-7,170
-- with this order; sixteen partners 6,000-6,400 with the lock, 7,980-8,080 with this order): a partner's creates queue
-- one behind another from their first counter row to their commit, and the lock's call and its hand-off to the next
-- waiter lengthened every turn of that queue.
--
-- What the order gives without it: whoever holds any counter row of a status holds that status's totals row (every
-- change takes it first). So a change of one key (a create, a delete) either waits at its first row holding nothing, or
-- holds it and then only waits for rows of its own status that nobody else can hold: it is never part of a deadlock.
-- With days first (V23), a create holding a day row could wait for the month row of a transaction that wanted that
-- day row in a second change (RequestListCountsTest). What is left: a transaction that makes several changes of one
-- partner (a statement that updates a request and inserts its first item, a multi-row delete, several statements) takes
-- their statuses in its own order, and can meet another writer of the same two statuses taking them in the other (a
-- move takes its two in key order). PostgreSQL then aborts one of them whole: nothing is half-written, and that write
-- can be repeated.
DROP FUNCTION request_list_count_move(text, text, timestamptz, text, text, timestamptz);
DROP FUNCTION request_list_count_apply(text, text, timestamptz, text, text, timestamptz);

CREATE FUNCTION request_list_count_move(old_partner text, old_status text, old_created timestamptz,
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
    -- Totals.
    IF old_partner IS NOT NULL AND new_partner IS NOT NULL AND (old_partner, old_status) = (new_partner, new_status) THEN
        first_delta := 0;
        second_delta := 0;
        IF old_day <> new_day THEN
            -- Only a change of created_at moves a row's day and not its status: its totals row is taken all the same,
            -- so that whoever holds a row of a status holds that status's totals row.
            PERFORM 1 FROM request_list_totals WHERE partner_id = old_partner AND status = old_status FOR UPDATE;
        END IF;
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
    -- Months.
    IF old_partner IS NOT NULL AND new_partner IS NOT NULL
       AND (old_partner, old_status, old_month) = (new_partner, new_status, new_month) THEN
        first_delta := 0;
        second_delta := 0;
        IF old_day <> new_day THEN
            PERFORM 1 FROM request_list_month_counts WHERE partner_id = old_partner AND status = old_status AND month = old_month
                FOR UPDATE;
        END IF;
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
END
$$;


