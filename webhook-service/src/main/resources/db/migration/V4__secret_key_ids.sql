-- Each webhook secret carries the id of the key that encrypted it (webhook.secret-keys: the first
-- key encrypts, every key decrypts the secrets stored with its id), so the keys can change: a new
-- key goes first, POST /ops/v1/webhook-secrets/re-encrypt moves every secret onto it, then the old
-- key is removed. Before this, one key encrypted everything and changing it made every stored secret
-- undecryptable.
ALTER TABLE webhook_settings ADD COLUMN secret_key_id text;

-- Secrets stored before key ids were encrypted with the single key of webhook.secret-encryption-key
-- (WEBHOOK_SECRET_ENCRYPTION_KEY), whatever it was in this deployment: the migration cannot know it.
-- That setting is still read, as the key with id "legacy" (README, Secrets).
UPDATE webhook_settings SET secret_key_id = 'legacy' WHERE secret_encrypted IS NOT NULL;

-- Both or neither.
ALTER TABLE webhook_settings
    ADD CONSTRAINT webhook_settings_secret_key_check CHECK ((secret_encrypted IS NULL) = (secret_key_id IS NULL));
