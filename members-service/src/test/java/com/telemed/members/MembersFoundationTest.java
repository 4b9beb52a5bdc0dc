package com.telemed.members;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceFoundationContract;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.UUID;

@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class MembersFoundationTest extends ServiceFoundationContract {

    /** The read the issue named: any member of any partner, to whoever reached the port. */
    @Override
    protected ServedCall servedCall() {
        return new ServedCall("/internal/members/" + UUID.randomUUID() + "?partnerId=" + PARTNER, 404,
                "{\"error\":\"Member not found\"}");
    }
}
