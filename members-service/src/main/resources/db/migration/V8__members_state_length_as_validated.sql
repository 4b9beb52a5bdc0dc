-- state and address_state are "exactly two characters" as the API validates them (Zod's length,
-- UTF-16 code units): a character outside the Basic Multilingual Plane counts two, so "😀" is a
-- valid state there. V3's CHECK (char_length(...) = 2) counts code points and refused it with a
-- 500 (found by the e2e bad-input property). The check now counts as the validation does: each
-- supplementary character as two.
ALTER TABLE members
    DROP CONSTRAINT members_state_check,
    ADD CONSTRAINT members_state_check
        CHECK (char_length(regexp_replace(state, '[\U00010000-\U0010FFFF]', 'xx', 'g')) = 2),
    DROP CONSTRAINT members_address_state_check,
    ADD CONSTRAINT members_address_state_check
        CHECK (char_length(regexp_replace(address_state, '[\U00010000-\U0010FFFF]', 'xx', 'g')) = 2);
