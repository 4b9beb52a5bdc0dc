package com.telemed.webhook;

import com.telemed.testkit.shape.ServiceShape;

/**
 * docs/architecture.md's "Service shape", checked on this service's classes (testkit's {@link ServiceShape}, issue #43).
 * Frozen (src/test/resources/archunit_store, the remaining work of issue #43): the technical package
 * {@code config} ({@code config.WebhookConfig}), and the cycle {@code events} ↔ {@code intake}
 * ({@code events.WebhookTestResource} hands a test event to {@code intake.Intake}, which records it through
 * {@code events.EventRecorder}).
 */
class ServiceShapeTest extends ServiceShape {

    ServiceShapeTest() {
        super("com.telemed.webhook", NO_TECHNICAL_PACKAGES, FEATURES_ARE_FREE_OF_CYCLES);
    }
}
