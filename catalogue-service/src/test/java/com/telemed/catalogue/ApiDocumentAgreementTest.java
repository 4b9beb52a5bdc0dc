package com.telemed.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.openapi.ApiAgreement;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The gateway's OpenAPI documents describe exactly this service's resources on the partner and
 * operator surfaces (method, path template, query and header parameters), as SmallRye OpenAPI
 * reads them from the compiled classes. A resource change the documents do not follow fails here;
 * the fix is in gateway/src/main/resources/openapi/ (gateway/README.md, API description).
 */
class ApiDocumentAgreementTest {

    @Test
    void thePartnerDocumentDescribesEveryPartnerResource() {
        assertEquals(List.of(), ApiAgreement.differences(ApiAgreement.PARTNER, Set.of("Drugs")));
    }

    @Test
    void theOperatorDocumentDescribesEveryOperatorResource() {
        assertEquals(List.of(), ApiAgreement.differences(ApiAgreement.OPERATIONS, Set.of("Catalogue", "Drug access")));
    }
}
