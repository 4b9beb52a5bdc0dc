package com.telemed.requests;

import com.telemed.testkit.shape.ServiceShape;

/**
 * docs/architecture.md's "Service shape", checked on this service's classes (testkit's {@link ServiceShape}, issue #43).
 * Frozen (src/test/resources/archunit_store, the remaining work of issue #43): {@code request.RequestEvents}
 * published from other features, and the JsonNode bodies
 * {@code Appointments.bookOnLink}/{@code outcome} (the sandbox's simulation calls them with a tree) and
 * {@code SurveyResponses} (its schema is the stored survey's) still bind themselves ({@code prescriber.InPerson.body} rewrites
 * a body before its validation; {@code member.MemberLookup.inline} takes the inline member kept as sent).
 */
class ServiceShapeTest extends ServiceShape {

    ServiceShapeTest() {
        super("com.telemed.requests", EVENTS_STAY_IN_THEIR_FEATURE, BEANS_BELOW_THE_RESOURCE_TAKE_NO_JSON_NODE);
    }
}
