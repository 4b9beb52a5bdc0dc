package com.telemed.members.member;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import java.io.IOException;

/**
 * A body field that may be sent as {@code null} to clear what is stored ({@code phone},
 * {@code shippingAddress}): absent (left as it is), or sent, with a value or {@code null}.
 *
 * <p>Why a wrapper: a record component holds one value, and for these fields "absent" and
 * "{@code null}" mean different things ({@code PUT}: keep versus clear). The other fields of
 * {@link MemberPatch} need none, since their schemas refuse {@code null}: after validation their
 * {@code null} can only mean absent. Jackson's {@code Optional} cannot tell the two apart either
 * (it binds both to {@code Optional.empty()}), hence the binding below: JSON {@code null} is
 * {@link #of of(null)}, a missing field {@link #absent()}.
 */
@JsonDeserialize(using = Clearable.Binding.class)
public record Clearable<T>(boolean sent, T value) {

    private static final Clearable<?> ABSENT = new Clearable<>(false, null);

    public Clearable {
        if (!sent && value != null) {
            throw new IllegalArgumentException("an absent field has no value");
        }
    }

    @SuppressWarnings("unchecked")
    public static <T> Clearable<T> absent() {
        return (Clearable<T>) ABSENT;
    }

    /** Sent with this value; {@code null} clears. */
    public static <T> Clearable<T> of(T value) {
        return new Clearable<>(true, value);
    }

    /** {@code component} itself, or {@link #absent()} for a component never given. */
    static <T> Clearable<T> orAbsent(Clearable<T> component) {
        return component == null ? absent() : component;
    }

    /** Binds a field's JSON value (null included) to a sent {@code Clearable}, a missing field to {@link #absent()}. */
    static final class Binding extends JsonDeserializer<Clearable<?>> implements ContextualDeserializer {

        private final JavaType valueType;

        Binding() {
            this(null);
        }

        private Binding(JavaType valueType) {
            this.valueType = valueType;
        }

        @Override
        public JsonDeserializer<?> createContextual(DeserializationContext context, BeanProperty property) {
            JavaType wrapper = property != null ? property.getType() : context.getContextualType();
            return new Binding(wrapper.containedTypeOrUnknown(0));
        }

        @Override
        public Clearable<?> deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            return of(context.readValue(parser, valueType));
        }

        /** The field was sent as {@code null}. */
        @Override
        public Clearable<?> getNullValue(DeserializationContext context) {
            return of(null);
        }

        /** The field was not sent (Jackson's default would be {@link #getNullValue}). */
        @Override
        public Object getAbsentValue(DeserializationContext context) {
            return absent();
        }
    }
}
