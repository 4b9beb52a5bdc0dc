-- A create's member check (member.MemberDeletions.live) in one round trip instead of two statements:
-- the member's advisory lock taken shared, then deleted_members read. Two statements inside, and they
-- must stay two: the function is VOLATILE, so under READ COMMITTED its second statement takes a fresh
-- snapshot after the lock is granted, and sees a delete agreed (and committed) while the create waited
-- on the lock. One SELECT that took the lock and read the table would read with the snapshot taken
-- before the wait, and miss it. The lock key is MemberDeletions.agree's: the member id in its text form.
CREATE FUNCTION member_live(partner text, member uuid) RETURNS boolean
    LANGUAGE plpgsql VOLATILE
AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(hashtext('requests.member:' || partner), hashtext(member::text));
    RETURN NOT EXISTS (SELECT 1 FROM deleted_members d WHERE d.partner_id = partner AND d.member_id = member);
END
$$;
