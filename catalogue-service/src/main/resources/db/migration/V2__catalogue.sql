-- The platform catalogue: drugs (with the pharmacy that fills each), their SKUs, and the drugs a
-- restricted partner may see and order.

CREATE TABLE drugs (
    id              varchar(128) PRIMARY KEY,
    name            text         NOT NULL,
    description     text,
    default_ad_copy text,
    classification  text         NOT NULL CHECK (classification IN ('non-controlled', 'controlled')),
    pharmacy_id     text         NOT NULL,
    pharmacy_method text         NOT NULL
        CHECK (pharmacy_method IN ('integration_a', 'integration_b', 'email', 'none')),
    created_at      timestamptz  NOT NULL,
    updated_at      timestamptz  NOT NULL
);

-- A SKU row is never deleted: requests keep referring to its id. A SKU left out of a drug's
-- replacement stays, inactive, after the listed ones. position orders the SKUs of one drug.
CREATE TABLE skus (
    id                        varchar(28)  PRIMARY KEY,
    drug_id                   varchar(128) NOT NULL REFERENCES drugs (id),
    position                  integer      NOT NULL,
    label                     text         NOT NULL,
    package_size              numeric,
    concentration_value       numeric,
    concentration_active_unit text,
    concentration_base_unit   text,
    active                    boolean      NOT NULL,
    created_at                timestamptz  NOT NULL,
    updated_at                timestamptz  NOT NULL,
    CONSTRAINT skus_concentration_complete CHECK (
        (concentration_value IS NULL) = (concentration_active_unit IS NULL)
        AND (concentration_value IS NULL) = (concentration_base_unit IS NULL))
);

CREATE INDEX skus_drug_position ON skus (drug_id, position);

-- A row here restricts the partner to the listed drugs; no row means the full catalogue.
-- Partner ids are the gateway's; drug ids are not checked against drugs (a listed drug may be
-- created later).
CREATE TABLE partner_drug_access (
    partner_id text        PRIMARY KEY,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);

CREATE TABLE partner_drug_access_drugs (
    partner_id text         NOT NULL REFERENCES partner_drug_access (partner_id) ON DELETE CASCADE,
    position   integer      NOT NULL,
    drug_id    varchar(128) NOT NULL,
    PRIMARY KEY (partner_id, position)
);
