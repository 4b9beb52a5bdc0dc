-- The W3C trace context of the call that recorded the event (issue 22, traces): the relay publishes
-- it as the Kafka record's traceparent header, so the consumers continue the caller's trace. Null
-- for an event recorded outside a trace (and for rows written before this column).
alter table outbox_events add column traceparent text;
