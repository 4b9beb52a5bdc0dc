package com.telemed.webhook;

import com.telemed.testkit.shape.ServiceShape;

/**
 * docs/architecture.md's "Service shape", checked on this service's classes (testkit's {@link ServiceShape}, issue #43).
 * Frozen (src/test/resources/archunit_store, the remaining work of issue #43): the technical package
 * {@code config} ({@code config.WebhookConfig}).
 */
class ServiceShapeTest extends ServiceShape {

    ServiceShapeTest() {
        super("com.telemed.webhook", NO_TECHNICAL_PACKAGES);
    }
}
