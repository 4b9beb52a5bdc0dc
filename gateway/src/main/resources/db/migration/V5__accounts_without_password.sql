-- OpenID Connect (issue #40; docs/security.md, "People on /ops"): the gateway provisions an account for a
-- person it first meets through a verified token, so that audit entries name an account id. Such an
-- account has no password: it signs in only through the provider (a sign-in with a password runs against
-- the dummy hash and fails as an unknown email does). Numbered 5: V4 is the gateway's audit table
-- (interfaces of issue #40, item 1), built beside this.
ALTER TABLE accounts ALTER COLUMN password_hash DROP NOT NULL;
