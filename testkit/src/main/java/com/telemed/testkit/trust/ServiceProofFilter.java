package com.telemed.testkit.trust;

import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;
import java.net.URI;
import java.time.Instant;

/**
 * A REST Assured filter that signs every call as a platform service would (the method, the target
 * REST Assured sends, the {@code X-Partner-Id} header the call carries and its {@code X-Principal}).
 * Every {@code @QuarkusTest} has it ({@link SignedQuarkusTests}), so resource tests call a service as
 * the gateway does; a test that must send something else opts out with
 * {@code given().noFiltersOfType(ServiceProofFilter.class)}.
 *
 * <p>A call to {@code /ops} acts as the operator key unless it carries its own {@code X-Principal}
 * ({@code .header(TestServiceProofs.PRINCIPAL_HEADER, TestServiceProofs.person("acc_1", "pr_1", "prescriber"))}),
 * which is signed as sent; an empty one signs a call without a principal.
 */
public final class ServiceProofFilter implements Filter {

    private final String key;

    public ServiceProofFilter(String key) {
        this.key = key;
    }

    @Override
    public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification response, FilterContext context) {
        String target = TestServiceProofs.target(URI.create(request.getURI()));
        String partnerId = request.getHeaders().getValue(TestServiceProofs.PARTNER_HEADER);
        String principal = request.getHeaders().hasHeaderWithName(TestServiceProofs.PRINCIPAL_HEADER)
                ? request.getHeaders().getValue(TestServiceProofs.PRINCIPAL_HEADER)
                : TestServiceProofs.defaultPrincipal(target);
        TestServiceProofs.headers(key, request.getMethod(), target, partnerId, principal, Instant.now().getEpochSecond())
                .forEach(request::replaceHeader);
        return context.next(request, response);
    }
}
