-- Issue #38: the database no longer holds a working attachment link. A link's token is now derived
-- from the attachment's id with a key only the service has (attachment.AttachmentLinks,
-- ATTACHMENT_LINK_KEY), so nothing of it is stored. The links handed out before keep working: their
-- random token becomes its SHA-256 (of the token's UTF-8 text; a download hashes what it is given
-- and looks it up here), and the token itself goes. Rows stored from now on have none.
alter table attachments add column legacy_token_hash bytea;
update attachments set legacy_token_hash = sha256(convert_to(token, 'UTF8'));
alter table attachments add constraint attachments_legacy_token_hash_key unique (legacy_token_hash);
alter table attachments drop column token;
