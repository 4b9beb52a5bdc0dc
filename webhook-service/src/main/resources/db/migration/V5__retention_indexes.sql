-- The retention job (retention.EventRecordRetention, platform-commons' retention package) deletes
-- deliveries and dropped events older than webhook.event-retention, oldest first, in batches: each
-- batch reads the oldest rows by these columns (the log's indexes lead with the partner).
CREATE INDEX deliveries_created_idx ON deliveries (created_at);
CREATE INDEX dropped_events_at_idx ON dropped_events (at);
