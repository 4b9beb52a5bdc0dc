package com.telemed.catalogue.access;

import static com.telemed.common.validation.Schemas.array;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.telemed.catalogue.drug.DrugIds;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.common.validation.StringSchema;

/** Zod-style schemas of the partner drug access endpoints (operations-api.md, Partner settings; the internal lookup). */
final class AccessSchemas {

    /** Partner ids are the gateway's UUIDs; the setting's primary key is the path's id. */
    static final int PARTNER_ID_MAX = 64;
    /** More drug ids than any catalogue has. */
    static final int DRUG_IDS_MAX = 1_000;

    /** {@code PUT /ops/v1/partners/:id/drug-access}: {@code drugIds} must be present, a list or {@code null} for the full catalogue. */
    static final ObjectSchema PUT = object().field("drugIds", array(DrugIds.schema()).max(DRUG_IDS_MAX).nullable());

    /** The path's partner id, reported with the body's issues under {@code ["partnerId"]}. */
    static final StringSchema PARTNER_ID = string().min(1).max(PARTNER_ID_MAX);

    /** {@code GET /internal/drugs/:drugId?partnerId=}: the query. */
    static final ObjectSchema LOOKUP = object().field("partnerId", string().min(1).max(PARTNER_ID_MAX));

    private AccessSchemas() {
    }
}
