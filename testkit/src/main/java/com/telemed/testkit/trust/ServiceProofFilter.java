package com.telemed.testkit.trust;

import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;
import java.net.URI;

/**
 * A REST Assured filter that signs every call as a platform service would (the method, the target
 * REST Assured sends and the {@code X-Partner-Id} header the call carries). Every {@code @QuarkusTest}
 * has it ({@link SignedQuarkusTests}), so resource tests call a service as the gateway does; a test
 * that must send something else opts out with {@code given().noFiltersOfType(ServiceProofFilter.class)}.
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
        TestServiceProofs.headers(key, request.getMethod(), target, partnerId).forEach(request::replaceHeader);
        return context.next(request, response);
    }
}
