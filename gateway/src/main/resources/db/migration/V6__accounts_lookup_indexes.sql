-- An OpenID Connect token's account (edge.Credentials.accountForToken) is looked up on every call by
-- its prescriber or its email among live and deleted accounts alike (a deleted account's token is
-- refused, never replaced), which the partial unique indexes of V3 (live accounts only) cannot serve.
CREATE INDEX accounts_prescriber_all ON accounts (prescriber_id);
CREATE INDEX accounts_email_lower_all ON accounts (lower(email));
