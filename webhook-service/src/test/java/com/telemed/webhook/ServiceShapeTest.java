package com.telemed.webhook;

import com.telemed.testkit.shape.ServiceShape;

/**
 * docs/architecture.md's "Service shape", checked on this service's classes (testkit's {@link ServiceShape}, issue #43).
 * Every rule is plain: nothing is frozen (the store of known violations went with the last of them).
 */
class ServiceShapeTest extends ServiceShape {

    ServiceShapeTest() {
        super("com.telemed.webhook");
    }
}
