-- The gateway database belongs to gateway alone; every schema change is a Flyway migration here.
-- Tables arrive with the features that own them.
SELECT 1;
