-- The newest attempt of a delivery kept on its row (README, Events, "The page's SQL"), so the events page reads
-- lastAttemptAt with the delivery instead of probing delivery_attempts for every row.
--
-- The recorder writes both in the statement that records the attempt (delivery.DeliveryStore.RECORD), in the UPDATE
-- that already bumps attempt_count. last_attempt_id is the attempt row's id: the newest attempt is the one of the
-- greatest id (what the page read before, ORDER BY id DESC LIMIT 1), and the greater of the stored id and the new one
-- is kept, so two recordings of one delivery committing in the other order than their ids leave the same value.
-- Neither column is indexed, so the recorder's UPDATE writes no index entry for them.
--
-- Rows recorded before this migration keep both columns null: the page reads their newest attempt as before
-- (EventReads: a delivery with attempts and no last_attempt_at). So nothing is rewritten here, and the migration
-- takes no longer on a large table than on an empty one.
ALTER TABLE deliveries
    ADD COLUMN last_attempt_id bigint,
    ADD COLUMN last_attempt_at timestamptz;

-- Whatever inserts an attempt keeps the columns: a replica of the previous release still recording during a rolling
-- update (its UPDATE does not set them), an operator's SQL. Once per statement, over the attempts it inserted; a row
-- the statement itself already brought up to date (the recorder's) matches nothing and is not written again.
CREATE FUNCTION deliveries_last_attempt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE deliveries d SET last_attempt_id = n.id, last_attempt_at = n.at
    FROM (SELECT DISTINCT ON (delivery_id) delivery_id, id, at FROM added ORDER BY delivery_id, id DESC) n
    WHERE d.id = n.delivery_id AND (d.last_attempt_id IS NULL OR d.last_attempt_id < n.id);
    RETURN NULL;
END
$$;

CREATE TRIGGER delivery_attempts_last_attempt AFTER INSERT ON delivery_attempts
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION deliveries_last_attempt();
