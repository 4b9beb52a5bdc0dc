-- requests-service's copy of what a create snapshots of its member (issue 23): names, email, date of birth and
-- state, as members-service last answered them, so that a create naming a memberId reads this row instead of
-- calling members-service. members-service numbers every change of a member (its version). Before it commits
-- change v it records a fence of v here (POST /internal/requests/member-fences, or, for the inline member of a
-- create, this service records it itself): a row answers a create only while version >= fence, so no change
-- members-service has answered is ever missed; otherwise the create reads the member through and stores it.
-- A row holding only a fence has version 0 and no values. Writes apply only a newer version (member.MemberCopies).
create table member_copies (
    partner_id    text   not null,
    member_id     uuid   not null,
    version       bigint not null default 0,
    fence         bigint not null default 0,
    first_name    text,
    last_name     text,
    email         text,
    date_of_birth text,
    state         text,
    primary key (partner_id, member_id)
);
