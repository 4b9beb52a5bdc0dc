-- Issue 44, round 4 (README, Events, "The page's SQL"): the newest attempt of a delivery kept on its row, so the
-- events page reads lastAttemptAt with the delivery instead of probing delivery_attempts for every row.
-- Both are written by the statement that records the attempt (delivery.DeliveryStore.RECORD), in the same UPDATE that
-- bumps attempt_count. last_attempt_id is the attempt row's id: the newest attempt is the one of the greatest id
-- (what the page's subquery, ORDER BY id DESC LIMIT 1, read before), and the recorder keeps the greater of the stored
-- and its own, so two recordings of one delivery committing in the other order than their ids leave the same value.
-- Neither column is indexed: the recorder's UPDATE stays a HOT update.
ALTER TABLE deliveries
    ADD COLUMN last_attempt_id bigint,
    ADD COLUMN last_attempt_at timestamptz;

UPDATE deliveries d SET last_attempt_id = a.id, last_attempt_at = a.at
FROM (SELECT DISTINCT ON (delivery_id) delivery_id, id, at FROM delivery_attempts ORDER BY delivery_id, id DESC) a
WHERE a.delivery_id = d.id;
