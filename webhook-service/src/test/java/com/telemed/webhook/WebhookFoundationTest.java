package com.telemed.webhook;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceFoundationContract;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class WebhookFoundationTest extends ServiceFoundationContract {

    /** An operator route: a partner's webhook deliveries (with the payloads sent), to whoever reached the port. */
    @Override
    protected ServedCall servedCall() {
        return new ServedCall("/ops/v1/partners/" + PARTNER + "/webhook/deliveries?limit=1", 200, "{\"deliveries\":[]}");
    }
}
