-- The retention job's index on deliveries (V5) now holds only the rows it can delete: retention.EventRecordRetention
-- deletes the oldest deliveries WHERE status <> 'retrying' (platform-commons' Pruner: that condition, then ORDER BY
-- created_at), and PostgreSQL uses a partial index for a query whose condition implies the index's.
--
-- Why: the events page reads its deliveries as one range of the partner's by created_at (events.EventReads: the
-- partner's deliveries between its rows' first and last timestamp), which deliveries_partner_created_idx serves. With
-- an index on created_at alone beside it, a generic plan that believes the table holds one partner (a table dominated by
-- one, or statistics sampled before others came) may take that index and filter the partner: the page would then read
-- every partner's deliveries of its time span. The events page's condition does not imply status <> 'retrying', so the
-- partial index is never a candidate for it, whatever the statistics. A delivery is entered in it when it stops being
-- retried (intake inserts it retrying: one index entry fewer per new delivery).
--
-- The build holds writes to deliveries for as long as it takes (0.3 s for 900,000 deliveries here); intake waits and
-- goes on, nothing is lost (its batch is acknowledged only after its commit).
CREATE INDEX deliveries_retention_idx ON deliveries (created_at) WHERE status <> 'retrying';
DROP INDEX deliveries_created_idx;
