package com.telemed.catalogue;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceFoundationContract;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class CatalogueFoundationTest extends ServiceFoundationContract {

    @Override
    protected ServedCall servedCall() {
        return new ServedCall("/internal/drugs/no-such-drug?partnerId=" + PARTNER, 404, "{\"error\":\"Drug not found\"}");
    }
}
