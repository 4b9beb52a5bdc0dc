-- The list counters (V22 days, V23 months and totals) without deadlocks. V23 takes the counter rows of
-- one trigger invocation in key order, but a statement or transaction that fires several invocations
-- (the create statement that inserts a request and its item, a request that gains its first item, a
-- delete cascading to items, a transaction of several writes) takes their keys in invocation order,
-- which is no global order: two such writers of one partner could take the same counter rows in opposite
-- orders, and PostgreSQL aborted one of them (deadlock detected).
--
-- Now every counter change first takes its partner's transaction-scoped advisory lock, which no other
-- lock of this database precedes in a writer's counter work: a writer holding it owns all of that
-- partner's counter rows until it commits, and one waiting for it holds none of them. The cost is small:
-- every create already waited for the one (partner, pending) totals row until the earlier create
-- committed. A change that moves a request between two partners (only operators' SQL could) takes both
-- partners' locks, lower first. The lock is re-entrant within a transaction: taking it again is local.
-- Key space: hashtext('requests.list-counts'), hashtext(partner), beside the member locks of V16.
ALTER FUNCTION request_list_count_move(text, text, timestamptz, text, text, timestamptz)
    RENAME TO request_list_count_apply;

CREATE FUNCTION request_list_count_move(old_partner text, old_status text, old_created timestamptz,
                                        new_partner text, new_status text, new_created timestamptz)
    RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF old_partner IS NOT NULL AND (new_partner IS NULL OR old_partner <= new_partner) THEN
        PERFORM pg_advisory_xact_lock(hashtext('requests.list-counts'), hashtext(old_partner));
    END IF;
    IF new_partner IS NOT NULL THEN
        PERFORM pg_advisory_xact_lock(hashtext('requests.list-counts'), hashtext(new_partner));
    END IF;
    IF old_partner IS NOT NULL AND new_partner IS NOT NULL AND old_partner > new_partner THEN
        PERFORM pg_advisory_xact_lock(hashtext('requests.list-counts'), hashtext(old_partner));
    END IF;
    PERFORM request_list_count_apply(old_partner, old_status, old_created, new_partner, new_status, new_created);
END
$$;
