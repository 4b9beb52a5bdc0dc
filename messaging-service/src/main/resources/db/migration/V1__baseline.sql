-- The messaging database belongs to messaging-service alone; every schema change is a Flyway migration here.
-- Tables arrive with the features that own them.
SELECT 1;
