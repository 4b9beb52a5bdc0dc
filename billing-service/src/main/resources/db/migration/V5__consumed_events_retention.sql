-- The retention job (ledger.ConsumedEventsRetention, platform-commons' retention package) deletes
-- consumed_events ids older than billing.consumed-events.retention, oldest first, in batches: each
-- batch reads the oldest rows by this index.
CREATE INDEX consumed_events_consumed_at_idx ON consumed_events (consumed_at);
