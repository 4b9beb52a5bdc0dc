-- requests-service's copy of the catalogue (issue 23): what a create needs of a drug (the partner-visible
-- record, its pharmacy) and of a partner's access, kept from catalogue-service's catalogue.events and its
-- snapshot (GET /internal/catalogue/snapshot) instead of a call to catalogue-service on every create.
-- Each row holds the catalogue version of its state; a write applies only over an older version
-- (catalogue.CatalogueCopy), so events and snapshots apply in any order, any number of times.
create table catalogue_drugs (
    drug_id         text   primary key,
    version         bigint not null,
    drug            json   not null,  -- the record as catalogue-service answers it, kept as sent
    pharmacy_id     text   not null,
    pharmacy_method text   not null
);

-- A partner's access: drug_ids null = the full catalogue (as a partner without a row); else the drugs it
-- may order (possibly none).
create table catalogue_access (
    partner_id text   primary key,
    version    bigint not null,
    drug_ids   text[]
);

-- One row once a snapshot has been applied: from then on the copy answers creates (before, every lookup
-- asks catalogue-service).
create table catalogue_copy_synced (
    id        integer     primary key check (id = 1),
    synced_at timestamptz not null
);
