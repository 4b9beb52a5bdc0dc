package com.telemed.common.json;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveResourceInfo;
import org.jboss.resteasy.reactive.server.spi.ServerMessageBodyWriter;
import org.jboss.resteasy.reactive.server.spi.ServerRequestContext;

/**
 * A response body of one type written field by field with Jackson's streaming generator ({@link #write}, the
 * subclass's, with {@link JsonFields}) into one buffer, and the response ended with it and its
 * {@code Content-Length}: no ObjectMapper serializer lookups, no output stream, no chunks (issue 44: the list pages
 * of requests-service and webhook-service). A subclass is a {@code @Provider} producing JSON.
 */
public abstract class OneBufferJsonWriter<T> implements ServerMessageBodyWriter<T> {

    private static final JsonFactory JSON = new JsonFactory();

    private final Class<T> type;
    private final int initialBytes;

    protected OneBufferJsonWriter(Class<T> type, int initialBytes) {
        this.type = type;
        this.initialBytes = initialBytes;
    }

    /** The whole body, as the platform's ObjectMapper would write it. */
    protected abstract void write(T value, JsonGenerator json) throws IOException;

    @Override
    public boolean isWriteable(Class<?> type, Type genericType, ResteasyReactiveResourceInfo target, MediaType mediaType) {
        return type == this.type;
    }

    @Override
    public boolean isWriteable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return type == this.type;
    }

    @Override
    public void writeResponse(T value, Type genericType, ServerRequestContext context) throws IOException {
        context.serverResponse().end(bytes(value));
    }

    @Override
    public void writeTo(T value, Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType,
                        MultivaluedMap<String, Object> headers, OutputStream out) throws IOException {
        out.write(bytes(value));
    }

    /** The body's UTF-8 bytes: one buffer of {@code initialBytes}, grown in segments when larger. */
    public byte[] bytes(T value) throws IOException {
        ByteArrayBuilder buffer = new ByteArrayBuilder(initialBytes);
        try (JsonGenerator json = JSON.createGenerator(buffer, JsonEncoding.UTF8)) {
            write(value, json);
        }
        return buffer.toByteArray();
    }
}
