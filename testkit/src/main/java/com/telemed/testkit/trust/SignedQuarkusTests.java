package com.telemed.testkit.trust;

import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Installs a {@link ServiceProofFilter} with the application's own key ({@code platform.trust.key},
 * the first of the list) as REST Assured's global filter before each {@code @QuarkusTest} method, so
 * every service's resource tests call it as the gateway would, without disabling the check. Replaces
 * the one a previous test installed (a test profile may change the key; compared by class name, as
 * an earlier application's class loader may have loaded it). Registered through
 * {@code META-INF/services}; an application without a key gets no filter.
 */
public final class SignedQuarkusTests implements QuarkusTestBeforeEachCallback {

    /** The key the application under test signs with (the first of {@code platform.trust.key}), for calls made without REST Assured. */
    public static String applicationKey() {
        return ConfigProvider.getConfig().getValues("platform.trust.key", String.class).get(0);
    }

    @Override
    public void beforeEach(QuarkusTestMethodContext context) {
        Optional<List<String>> keys = ConfigProvider.getConfig().getOptionalValues("platform.trust.key", String.class);
        List<Filter> others = RestAssured.filters().stream().filter(filter -> !filter.getClass().getName().equals(ServiceProofFilter.class.getName())).toList();
        RestAssured.replaceFiltersWith(others);
        keys.filter(list -> !list.isEmpty()).ifPresent(list -> RestAssured.filters(new ServiceProofFilter(list.get(0))));
    }
}
