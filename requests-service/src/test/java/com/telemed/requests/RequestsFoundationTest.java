package com.telemed.requests;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceFoundationContract;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.UUID;

@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class RequestsFoundationTest extends ServiceFoundationContract {

    @Override
    protected ServedCall servedCall() {
        return new ServedCall("/internal/prescribers/" + UUID.randomUUID(), 404, "{\"error\":\"Prescriber not found\"}");
    }
}
