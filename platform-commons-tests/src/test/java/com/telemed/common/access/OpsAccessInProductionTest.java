package com.telemed.common.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.telemed.common.error.ErrorBody;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link OpsAccessFilter}'s answers by environment (a Quarkus test runs as a sandbox; a production
 * deployment is this): the operator key may not act for a prescriber there, nor read a conversation.
 */
class OpsAccessInProductionTest {

    private static final OpsAccessFilter PRODUCTION = new OpsAccessFilter("production");
    private static final OpsAccessFilter SANDBOX = new OpsAccessFilter("sandbox");
    private static final List<String> OPERATOR_KEY = List.of("operator_key:service");

    private static void refused(Response response, int status, String error) {
        assertEquals(status, response.getStatus());
        assertEquals(new ErrorBody(error), response.getEntity());
    }

    @Test
    void theOperatorKeyMustNotActForAPrescriberInProduction() {
        refused(PRODUCTION.answer("POST", "/ops/v1/requests/{id}/claim", OPERATOR_KEY), 403, "A prescriber must act in person");
        refused(PRODUCTION.answer("GET", "/ops/v1/conversations/{id}/messages", OPERATOR_KEY), 403, "A prescriber must act in person");
        refused(PRODUCTION.answer("GET", "/ops/v1/conversations", OPERATOR_KEY), 403, "A prescriber must act in person");
        assertNull(PRODUCTION.answer("POST", "/ops/v1/requests/{id}/claim", List.of("person:acc_1:prescriber:pr_1")));
        assertNull(PRODUCTION.answer("PUT", "/ops/v1/drugs/{drugId}", OPERATOR_KEY));
        assertNull(SANDBOX.answer("POST", "/ops/v1/requests/{id}/claim", OPERATOR_KEY));
        assertNull(SANDBOX.answer("GET", "/ops/v1/conversations/{id}/messages", OPERATOR_KEY));
        assertNull(SANDBOX.answer("GET", "/ops/v1/conversations", OPERATOR_KEY));
    }

    @Test
    void anyEnvironmentButExactlySandboxIsProduction() {
        for (String environment : new String[] {"production", "Sandbox", "", "staging"}) {
            refused(new OpsAccessFilter(environment).answer("POST", "/ops/v1/requests/{id}/claim", OPERATOR_KEY), 403,
                    "A prescriber must act in person");
        }
    }

    @Test
    void twoPrincipalsAreNone() {
        refused(SANDBOX.answer("GET", "/ops/v1/drugs", List.of("operator_key:service", "person:acc_1:admin:")), 401, "Invalid token");
        refused(SANDBOX.answer("GET", "/ops/v1/drugs", List.of()), 401, "Invalid token");
        refused(SANDBOX.answer("GET", "/ops/v1/drugs", null), 401, "Invalid token");
        // Outside /ops nothing is asked.
        assertNull(SANDBOX.answer("GET", "/internal/members/{id}", null));
    }

    @Test
    void theTemplateIsTheResourcesPathAsOpenApiNamesIt() throws Exception {
        // ProbeOpsResource: "/ops/v1" on the class; "drugs" without a slash, a regular expression and a trailing slash.
        assertEquals("/ops/v1/drugs", OpsAccessFilter.template(ProbeOpsResource.class, ProbeOpsResource.class.getMethod("drugs")));
        assertEquals("/ops/v1/conversations/{id}/messages",
                OpsAccessFilter.template(ProbeOpsResource.class, ProbeOpsResource.class.getMethod("messages", String.class)));
    }
}
