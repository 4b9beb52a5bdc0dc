-- The signed record stays what was signed. Until now only the entity's updatable = false kept the
-- frozen columns of prescription_records from changing, which binds this code and nobody else (a
-- later change of it, a script, a hand in psql). From here the database itself refuses.

-- The SHA-256 (lowercase hex) of the record's frozen fields in canonical form, taken at signing
-- (RecordDigest.java; PrescriptionRecord.intact() compares it with the record as it reads now).
-- It catches what the trigger below cannot: a change made with the trigger disabled, or below SQL.
-- Nullable: there is no production data, but a local stack keeps its database between runs and may
-- hold records signed before this migration, and SQL cannot compute the Java canonical form to
-- backfill them (jsonb's text output orders keys by length, its numbers are not the stripped plain
-- form). Those rows keep a null digest, which intact() reports as not intact; every record minted
-- from now on gets one (PrescriptionSigning). The trigger freezes the digest like the other signed
-- columns, so a null one is never filled in later (and a forged one never written over a real one).
ALTER TABLE prescription_records ADD COLUMN digest text;
ALTER TABLE prescription_records ADD CONSTRAINT prescription_records_digest_check
    CHECK (digest ~ '^[0-9a-f]{64}$');

-- Before every update of a record:
--  * a frozen column that changes (compared with IS DISTINCT FROM, so null to a value counts)
--    raises SQLSTATE RX001 "prescription record <id> is signed: <columns> cannot change";
--  * a status move the record status table does not allow raises SQLSTATE RX002
--    "prescription record <id>: status <from> cannot move to <to>".
-- The same status is always allowed (the fulfilment stamps, void reason and updated_at may move).
-- Allowed moves (partner-api.md, "Prescription record status"):
--   issued           -> sent_to_pharmacy, voided, cancelled, expired
--   sent_to_pharmacy -> filled, cancelled, voided, expired
--   filled           -> refilled, expired
--   refilled         -> refilled, expired
--   cancelled, voided, expired: terminal
-- The codes are the platform's own (class RX is not PostgreSQL's), so that no layer mistakes them
-- for a constraint violation it could translate to a 4xx: reaching this trigger from the
-- application is a bug, and a 500.
--
-- DELETE is left alone on purpose: rows go only by ON DELETE CASCADE from their request or line
-- item, and requests are deleted while pending only (a member's delete), before any record of
-- them exists. A delete trigger could not tell that cascade from a direct DELETE anyway.
CREATE FUNCTION prescription_records_signed() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    changed text[] := '{}';
BEGIN
    IF NEW.id IS DISTINCT FROM OLD.id THEN changed := changed || 'id'::text; END IF;
    IF NEW.partner_id IS DISTINCT FROM OLD.partner_id THEN changed := changed || 'partner_id'::text; END IF;
    IF NEW.request_id IS DISTINCT FROM OLD.request_id THEN changed := changed || 'request_id'::text; END IF;
    IF NEW.line_item_id IS DISTINCT FROM OLD.line_item_id THEN changed := changed || 'line_item_id'::text; END IF;
    IF NEW.member_id IS DISTINCT FROM OLD.member_id THEN changed := changed || 'member_id'::text; END IF;
    IF NEW.prescriber_id IS DISTINCT FROM OLD.prescriber_id THEN changed := changed || 'prescriber_id'::text; END IF;
    IF NEW.pharmacy_id IS DISTINCT FROM OLD.pharmacy_id THEN changed := changed || 'pharmacy_id'::text; END IF;
    IF NEW.drug_id IS DISTINCT FROM OLD.drug_id THEN changed := changed || 'drug_id'::text; END IF;
    IF NEW.supersedes_id IS DISTINCT FROM OLD.supersedes_id THEN changed := changed || 'supersedes_id'::text; END IF;
    IF NEW.renewal_of_id IS DISTINCT FROM OLD.renewal_of_id THEN changed := changed || 'renewal_of_id'::text; END IF;
    -- jsonb equality: the same document, whatever the key order or spacing it was written with.
    IF NEW.clinical IS DISTINCT FROM OLD.clinical THEN changed := changed || 'clinical'::text; END IF;
    IF NEW.issued_at IS DISTINCT FROM OLD.issued_at THEN changed := changed || 'issued_at'::text; END IF;
    IF NEW.expiration_date IS DISTINCT FROM OLD.expiration_date THEN changed := changed || 'expiration_date'::text; END IF;
    IF NEW.created_at IS DISTINCT FROM OLD.created_at THEN changed := changed || 'created_at'::text; END IF;
    IF NEW.digest IS DISTINCT FROM OLD.digest THEN changed := changed || 'digest'::text; END IF;
    IF cardinality(changed) > 0 THEN
        RAISE EXCEPTION USING ERRCODE = 'RX001',
            MESSAGE = format('prescription record %s is signed: %s cannot change', OLD.id, array_to_string(changed, ', '));
    END IF;

    IF NEW.status IS DISTINCT FROM OLD.status AND NOT coalesce(CASE OLD.status
            WHEN 'issued' THEN NEW.status IN ('sent_to_pharmacy', 'voided', 'cancelled', 'expired')
            WHEN 'sent_to_pharmacy' THEN NEW.status IN ('filled', 'cancelled', 'voided', 'expired')
            WHEN 'filled' THEN NEW.status IN ('refilled', 'expired')
            WHEN 'refilled' THEN NEW.status IN ('refilled', 'expired')
            ELSE false
        END, false) THEN
        RAISE EXCEPTION USING ERRCODE = 'RX002',
            MESSAGE = format('prescription record %s: status %s cannot move to %s', OLD.id, OLD.status, NEW.status);
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER prescription_records_signed
    BEFORE UPDATE ON prescription_records
    FOR EACH ROW EXECUTE FUNCTION prescription_records_signed();
