package com.telemed.testkit.quarkus;

import io.quarkus.test.common.http.TestHTTPResourceManager;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import java.net.URI;

/**
 * The management interface of the service under {@code @QuarkusTest} ({@code quarkus.management.enabled}):
 * where {@code /q/health/**} and {@code /q/metrics} are served, on its own random port in tests
 * ({@code quarkus.management.test-port=0}, platform-commons), never on the http port RestAssured targets.
 */
public final class ManagementPort {

    private ManagementPort() {
    }

    /** {@code http://127.0.0.1:<port>}, without the {@code /q} root: callers keep the full {@code /q/...} path. */
    public static URI baseUri() {
        return URI.create(TestHTTPResourceManager.getManagementUri()).resolve("/");
    }

    /** RestAssured's {@code given()} aimed at the management port, with RestAssured's global filters. */
    public static RequestSpecification given() {
        URI base = baseUri();
        return RestAssured.given().baseUri(base.getScheme() + "://" + base.getHost()).port(base.getPort());
    }
}
