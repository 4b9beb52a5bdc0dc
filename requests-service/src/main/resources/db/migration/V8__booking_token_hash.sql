-- Booking tokens are bearer credentials (whoever holds the link books): keep only their SHA-256,
-- lowercase hex of the token's UTF-8 bytes, as the gateway keeps API keys. The token itself is
-- returned once, in the booking URL of the answer and of the event. sha256() is built into
-- PostgreSQL 11 and later: no extension needed.
ALTER TABLE consultations ADD COLUMN token_hash text;
UPDATE consultations SET token_hash = encode(sha256(convert_to(token, 'UTF8')), 'hex');
ALTER TABLE consultations ALTER COLUMN token_hash SET NOT NULL;
ALTER TABLE consultations ADD CONSTRAINT consultations_token_hash_key UNIQUE (token_hash);
-- Its unique constraint goes with it.
ALTER TABLE consultations DROP COLUMN token;
