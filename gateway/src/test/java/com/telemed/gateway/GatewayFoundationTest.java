package com.telemed.gateway;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceFoundationContract;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class GatewayFoundationTest extends ServiceFoundationContract {

    /** The gateway never publishes or consumes: no Kafka client, no Kafka health check. */
    @Override
    protected boolean usesKafka() {
        return false;
    }

    /** The public edge: partners and operators reach it with their own credentials, never a service proof. */
    @Override
    protected boolean checksServiceProofs() {
        return false;
    }
}
