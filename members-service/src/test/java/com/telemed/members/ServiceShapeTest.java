package com.telemed.members;

import com.telemed.testkit.shape.ServiceShape;

/** docs/architecture.md's "Service shape", checked on this service's classes (testkit's {@link ServiceShape}, issue #43). */
class ServiceShapeTest extends ServiceShape {

    ServiceShapeTest() {
        super("com.telemed.members");
    }
}
