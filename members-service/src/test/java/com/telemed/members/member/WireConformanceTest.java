package com.telemed.members.member;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.members.FakeRequestsServiceResource;
import com.telemed.testkit.openapi.WireCheck;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The member answers against the gateway's partner OpenAPI document (issue 22): create (with and
 * without gender), read, list, update (clearing phone and shipping address), and the validation and
 * not-found errors, each valid against the schema of the status it has.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class WireConformanceTest {

    private final WireCheck wire = WireCheck.against("partner.yaml");

    @Test
    void theMemberAnswersConformToThePartnerDocument() {
        String partner = MemberFixtures.newPartner();
        String email = "ada+" + UUID.randomUUID() + "@example.com";
        Response created = MemberFixtures.post(partner, MemberFixtures.memberBody("Ada", "Lovelace", email));
        wire.answer("post", "/v1/members", 201, created);
        String id = created.path("member.id");
        wire.answer("get", "/v1/members/{id}", 200, MemberFixtures.get(partner, id));
        wire.answer("get", "/v1/members", 200, MemberFixtures.list(partner, Map.of("limit", "5")));
        wire.answer("put", "/v1/members/{id}", 200, MemberFixtures.put(partner, id,
                "{\"phone\":null,\"shippingAddress\":null,\"status\":\"paused\"}"));
        wire.answer("put", "/v1/members/{id}", 200, MemberFixtures.put(partner, id,
                "{\"phone\":\"+1 555 0100\",\"shippingAddress\":{\"street1\":\"1 Main St\",\"street2\":\"Apt 2\","
                        + "\"city\":\"Springfield\",\"state\":\"IL\",\"zipCode\":\"62701-1234\"}}"));
        wire.answer("get", "/v1/members/{id}", 200, MemberFixtures.get(partner, id));
        wire.answer("post", "/v1/members", 400, MemberFixtures.post(partner, "{\"firstName\":\"\"}"));
        wire.answer("get", "/v1/members", 400, MemberFixtures.list(partner, Map.of("limit", "500")));
        wire.answer("get", "/v1/members/{id}", 404, MemberFixtures.get(partner, UUID.randomUUID().toString()));
        wire.answer("put", "/v1/members/{id}", 404, MemberFixtures.put(partner, UUID.randomUUID().toString(), "{\"phone\":null}"));
        assertEquals(List.of(), wire.problems());
    }
}
