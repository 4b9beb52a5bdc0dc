package com.telemed.common.validation;

import java.util.List;

/** Entry points of the schema language: {@code object().field("email", string().email())}. */
public final class Schemas {

    private Schemas() {
    }

    public static ObjectSchema object() {
        return new ObjectSchema();
    }

    public static StringSchema string() {
        return new StringSchema();
    }

    public static NumberSchema number() {
        return new NumberSchema();
    }

    public static BooleanSchema bool() {
        return new BooleanSchema();
    }

    public static EnumSchema enumOf(String... options) {
        return new EnumSchema(List.of(options));
    }

    public static ArraySchema array(Schema<?> item) {
        return new ArraySchema(item);
    }
}
