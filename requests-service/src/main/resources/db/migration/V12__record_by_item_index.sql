-- A transmission and a shipping update read the item's current prescription record
-- (line_item_id = ?, newest first): without this index each was a sequential scan of
-- prescription_records (bench/fulfilment.sh showed one per transmission).
CREATE INDEX prescription_records_item_idx ON prescription_records (line_item_id, created_at DESC, id DESC);
