package com.telemed.common.input;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.common.error.ErrorResponses;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.StorableText;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.ConstrainedTo;
import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The one place every service refuses text PostgreSQL cannot store (decisions.md, Wire format):
 * U+0000 or an unpaired UTF-16 surrogate in a query parameter, a path parameter or anywhere in a
 * JSON body (keys included) answers {@code 400} with one {@code custom} issue
 * {@code Invalid character} per offending string, before any resource method runs, so nothing is
 * read from or written to a database with it. Every service depends on platform-commons, whose
 * Jandex index makes Quarkus REST register both parts below; no endpoint opts in or can forget it.
 *
 * <ul>
 *   <li>{@link #parameters}: a request filter (after matching, so path parameters are known).
 *       Issue paths are the parameter's name: {@code ["search"]}, {@code ["id"]}. Every offending
 *       parameter is reported at once, path parameters in path order, then query parameters in
 *       query order; the body is not read then.</li>
 *   <li>{@link Bodies}: a reader interceptor for JSON bodies. A body bound to a {@code JsonNode}
 *       (every endpoint today) is checked on the tree the resource receives, at no second parse;
 *       a body bound to anything else is parsed once more as a tree from the same bytes.
 *       Issue paths are the JSON paths: {@code ["member", "address", "street1"]}.</li>
 * </ul>
 */
public final class InputCharacters {

    /**
     * Path parameters in the order of the path, then query parameters in the order of the query string.
     * A request line of printable ASCII without {@code %} cannot decode to a parameter with U+0000 or a
     * surrogate, so it is passed without building the parameter maps (issue 23: on every internal call).
     */
    @ServerRequestFilter
    public Response parameters(ContainerRequestContext request, ResourceInfo resource, HttpServerRequest raw) {
        if (plainAscii(raw.uri())) {
            return null;
        }
        Issues issues = new Issues();
        MultivaluedMap<String, String> path = request.getUriInfo().getPathParameters();
        check(path, ordered(path.keySet(), pathNames(resource)), issues);
        MultivaluedMap<String, String> query = request.getUriInfo().getQueryParameters();
        check(query, ordered(query.keySet(), queryNames(request.getUriInfo().getRequestUri().getRawQuery())), issues);
        return issues.isEmpty() ? null : ErrorResponses.of(400, issues.list());
    }

    /** Only printable ASCII and no percent-escape: every parameter decoded from it is the same printable ASCII. */
    static boolean plainAscii(String uri) {
        if (uri == null) {
            return false;
        }
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c < 0x20 || c > 0x7E || c == '%') {
                return false;
            }
        }
        return true;
    }

    private static void check(MultivaluedMap<String, String> parameters, List<String> names, Issues issues) {
        for (String name : names) {
            boolean storable = StorableText.storable(name);
            for (String value : parameters.get(name)) {
                storable &= value == null || StorableText.storable(value);
            }
            if (!storable) {
                issues.custom(List.of(name), StorableText.INVALID_CHARACTER);
            }
        }
    }

    /** The names present, in the order {@code order} gives them (any others after, by name): answers never depend on a hash. */
    private static List<String> ordered(Set<String> present, List<String> order) {
        List<String> names = new ArrayList<>();
        for (String name : order) {
            if (present.contains(name) && !names.contains(name)) {
                names.add(name);
            }
        }
        present.stream().filter(name -> !names.contains(name)).sorted().forEach(names::add);
        return names;
    }

    /** {@code {name}} placeholders of the matched resource's template, class path then method path. */
    private static List<String> pathNames(ResourceInfo resource) {
        StringBuilder template = new StringBuilder();
        if (resource != null && resource.getResourceClass() != null && resource.getResourceClass().isAnnotationPresent(Path.class)) {
            template.append(resource.getResourceClass().getAnnotation(Path.class).value());
        }
        if (resource != null && resource.getResourceMethod() != null && resource.getResourceMethod().isAnnotationPresent(Path.class)) {
            template.append('/').append(resource.getResourceMethod().getAnnotation(Path.class).value());
        }
        List<String> names = new ArrayList<>();
        Matcher placeholder = PLACEHOLDER.matcher(template);
        while (placeholder.find()) {
            names.add(placeholder.group(1));
        }
        return names;
    }

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\s*([^}:\\s]+)");

    /** Parameter names in the order of the raw query string. */
    private static List<String> queryNames(String rawQuery) {
        List<String> names = new ArrayList<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return names;
        }
        for (String pair : rawQuery.split("&")) {
            int equals = pair.indexOf('=');
            String raw = equals < 0 ? pair : pair.substring(0, equals);
            try {
                names.add(URLDecoder.decode(raw, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException malformed) {
                names.add(raw);
            }
        }
        return names;
    }

    /** Checks every JSON body a resource reads; see the class comment. Server side only, never the REST clients. */
    @Provider
    @ConstrainedTo(RuntimeType.SERVER)
    public static final class Bodies implements ReaderInterceptor {

        private final ObjectMapper mapper;

        public Bodies(ObjectMapper mapper) {
            this.mapper = mapper;
        }

        @Override
        public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
            if (!isJson(context.getMediaType())) {
                return context.proceed();
            }
            if (JsonNode.class.isAssignableFrom(context.getType())) {
                Object body = context.proceed();
                if (body instanceof JsonNode tree) {
                    StorableText.check(tree);
                }
                return body;
            }
            byte[] bytes = context.getInputStream().readAllBytes();
            context.setInputStream(new ByteArrayInputStream(bytes));
            JsonNode tree;
            try {
                tree = mapper.readTree(bytes);
            } catch (JsonProcessingException unreadable) {
                // The reader the resource asked for reports it (400 Invalid JSON).
                return context.proceed();
            }
            StorableText.check(tree);
            return context.proceed();
        }

        private static boolean isJson(MediaType type) {
            return type != null && (type.getSubtype().equalsIgnoreCase("json") || type.getSubtype().toLowerCase(java.util.Locale.ROOT).endsWith("+json"));
        }
    }
}
