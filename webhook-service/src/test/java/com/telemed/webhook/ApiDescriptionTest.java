package com.telemed.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.common.access.OpsAccess;
import com.telemed.testkit.openapi.ApiPaths;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The part of the served OpenAPI description that this module's code says (its resources'
 * MicroProfile OpenAPI annotations, read by SmallRye OpenAPI from the compiled classes) is exactly
 * the committed gateway/src/main/resources/openapi/generated/webhook-service.yaml: an operation, parameter or
 * answer changed in the code without regenerating fails here (gateway/README.md, API description).
 */
class ApiDescriptionTest {

    @Test
    void theCommittedDescriptionIsWhatTheAnnotationsSay() {
        assertEquals(List.of(), ApiPaths.check("webhook-service"));
    }

    /** Every /ops operation of this module has its row in the one access table (issue #40): a new one cannot be forgotten. */
    @Test
    void everyOpsOperationHasItsRowInTheAccessTable() {
        assertEquals(List.of(), ApiPaths.opsOperationsMissingFrom(OpsAccess.operations()));
    }

    /** The README's table of who may call what is the access table's rows of this module's /ops operations. */
    @Test
    void theReadmeSaysWhoMayCallWhatAsTheAccessTableDoes() {
        assertEquals(List.of(), ApiPaths.checkAccessTable(OpsAccess.markdown(ApiPaths.opsOperationsHere())));
    }
}
