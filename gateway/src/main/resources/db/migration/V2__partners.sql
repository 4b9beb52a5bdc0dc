-- Partners and their credentials. Keys are stored only as SHA-256 hashes (hex); the keys
-- themselves are shown once, when created or rotated.
CREATE TABLE partners (
    id                   uuid PRIMARY KEY,
    name                 text        NOT NULL,
    api_key_hash         char(64)    NOT NULL UNIQUE,
    publishable_key_hash char(64)    NOT NULL UNIQUE,
    created_at           timestamptz NOT NULL,
    updated_at           timestamptz NOT NULL
);

CREATE TABLE partner_embed_origins (
    partner_id uuid    NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    position   integer NOT NULL,
    origin     text    NOT NULL,
    PRIMARY KEY (partner_id, position)
);

-- Embed preflights carry no key, so they ask whether any partner allows the origin.
CREATE INDEX partner_embed_origins_origin ON partner_embed_origins (origin);
