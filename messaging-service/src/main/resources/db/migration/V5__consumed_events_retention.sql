-- The retention job (care.ConsumedEventsRetention, platform-commons' retention package) deletes
-- consumed_events ids older than messaging.consumed-events.retention, oldest first, in batches:
-- each batch reads the oldest rows by this index.
create index consumed_events_consumed_at_idx on consumed_events (consumed_at);
