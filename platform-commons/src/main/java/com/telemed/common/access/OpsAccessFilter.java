package com.telemed.common.access;

import com.telemed.common.error.ErrorResponses;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Enforces {@link OpsAccess} on every {@code /ops} resource method of the service (the gateway's own
 * too): a request filter, after matching, that Quarkus REST registers in every service through
 * platform-commons' Jandex index, so no endpoint opts in or can forget it. The operation is the matched
 * resource method's route template (the class's {@code @Path}, then the method's) and the HTTP method;
 * the principal is the call's {@value Principal#HEADER} header ({@link Caller}), which the service proof
 * covers. Without one: {@code 401 {"error":"Invalid token"}}; a principal the table does not allow, or
 * an operation it does not list: {@code 403 {"error":"Forbidden"}}; the operator key on a prescriber's
 * action or a conversation read in production: {@code 403 {"error":"A prescriber must act in person"}}.
 * Runs before every other request filter of the platform (authorization priority), so a refused call
 * is judged on nothing else; other paths ({@code /v1}, {@code /v2}, {@code /internal}) are not its concern.
 */
@Singleton
public class OpsAccessFilter {

    private static final Pattern REGEX_PLACEHOLDER = Pattern.compile("\\{\\s*([^}:\\s]+)\\s*(:[^}]*)?}");

    /** The deployment's environment (platform-commons' {@code microprofile-config.properties}: {@code SERVICE_ENVIRONMENT}). */
    public static final String ENVIRONMENT = "platform.access.environment";

    private final boolean production;
    private final Map<Method, String> templates = new ConcurrentHashMap<>();

    /**
     * {@code environment}: exactly {@code sandbox} lets the operator key act for a prescriber;
     * anything else is production (fails closed).
     */
    public OpsAccessFilter(@ConfigProperty(name = ENVIRONMENT, defaultValue = "production") String environment) {
        this.production = !"sandbox".equals(environment);
    }

    @ServerRequestFilter(priority = Priorities.AUTHORIZATION)
    public Response check(ContainerRequestContext request, ResourceInfo resource, HttpServerRequest raw) {
        if (resource == null || resource.getResourceMethod() == null) {
            return null;
        }
        String template = templates.computeIfAbsent(resource.getResourceMethod(), method -> template(resource.getResourceClass(), method));
        return answer(request.getMethod(), template, raw.headers().getAll(Principal.HEADER));
    }

    /** The answer to a call of {@code method template} with these {@value Principal#HEADER} headers; null: go on. */
    Response answer(String method, String template, List<String> principals) {
        if (!template.startsWith("/ops/")) {
            return null;
        }
        OpsAccess.Verdict verdict = OpsAccess.decide(method, template, Caller.of(principals), production);
        return verdict == OpsAccess.Verdict.ALLOWED ? null : ErrorResponses.of(verdict.status(), verdict.error());
    }

    /** The route template of a resource method as OpenAPI names it: {@code /ops/v1/requests/{id}/claim}. */
    static String template(Class<?> resourceClass, Method method) {
        StringBuilder template = new StringBuilder();
        append(template, resourceClass == null ? null : resourceClass.getAnnotation(Path.class));
        append(template, method.getAnnotation(Path.class));
        return template.length() == 0 ? "/" : REGEX_PLACEHOLDER.matcher(template).replaceAll("{$1}");
    }

    private static void append(StringBuilder template, Path path) {
        if (path == null) {
            return;
        }
        for (String segment : path.value().split("/")) {
            if (!segment.isBlank()) {
                template.append('/').append(segment.strip());
            }
        }
    }
}
