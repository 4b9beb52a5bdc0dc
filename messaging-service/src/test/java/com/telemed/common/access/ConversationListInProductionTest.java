package com.telemed.common.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.telemed.common.error.ErrorBody;
import com.telemed.messaging.conversation.ConversationListResource;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The console's list of threads ({@code GET /ops/v1/conversations}, messaging's
 * {@link ConversationListResource}) as platform-commons' {@link OpsAccessFilter} answers it by environment
 * (this module's Quarkus tests run as a sandbox; a production deployment is this): the list carries
 * members' names, so the operator key reads it only in sandbox and local, as a conversation's messages.
 * In this package for the filter's own answer on the resource method's own route template.
 */
class ConversationListInProductionTest {

    private static final OpsAccessFilter PRODUCTION = new OpsAccessFilter("production");
    private static final OpsAccessFilter SANDBOX = new OpsAccessFilter("sandbox");

    @Test
    void theOperatorKeyMustReadTheThreadsInPersonInProduction() throws Exception {
        String template = OpsAccessFilter.template(ConversationListResource.class,
                ConversationListResource.class.getMethod("list", jakarta.ws.rs.core.UriInfo.class));
        assertEquals("/ops/v1/conversations", template);

        Response refused = PRODUCTION.answer("GET", template, List.of("operator_key:service"));
        assertEquals(403, refused.getStatus());
        assertEquals(new ErrorBody("A prescriber must act in person"), refused.getEntity());
        assertNull(SANDBOX.answer("GET", template, List.of("operator_key:service")));
        for (String person : new String[] {"person:acc_1:admin:", "person:acc_2:prescriber:pr_1", "person:acc_3:support:"}) {
            assertNull(PRODUCTION.answer("GET", template, List.of(person)), person);
        }
        Response pharmacy = PRODUCTION.answer("GET", template, List.of("pharmacy:ph_1"));
        assertEquals(403, pharmacy.getStatus());
        assertEquals(new ErrorBody("Forbidden"), pharmacy.getEntity());
    }
}
