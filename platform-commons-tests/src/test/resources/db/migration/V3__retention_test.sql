-- What the retention tests prune: rows of a test run ("run"), aged by "at", some held whatever
-- their age (state 'hold', left out by the rules' condition). Indexed by age, as a pruned table must be.
create table retention_probe (
    id    bigserial   primary key,
    run   uuid        not null,
    at    timestamptz not null,
    state text        not null
);
create index retention_probe_at_idx on retention_probe (at);
