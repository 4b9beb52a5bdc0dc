-- A delivery is signed by its first attempt, not when it is stored: a delivery that waits behind a
-- burst (8 attempts in flight per partner) must not go out with a timestamp minutes old. Until that
-- attempt is recorded, signed_at and signature are null; the attempt's record stores both, and every
-- later attempt sends them again. A redelivery clears them for its round's first attempt to sign.
ALTER TABLE deliveries
    ALTER COLUMN signed_at DROP NOT NULL,
    ALTER COLUMN signature DROP NOT NULL;

-- Both or neither (every existing row has both).
ALTER TABLE deliveries
    ADD CONSTRAINT deliveries_signed_check CHECK ((signed_at IS NULL) = (signature IS NULL));
