package com.telemed.requests.simulation;

import com.telemed.common.error.ErrorResponses;
import com.telemed.requests.deployment.DeploymentConfig;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Outside a sandbox deployment every {@code /v1/sandbox} route answers
 * {@code 404 {"error":"Not Found"}}, whatever its method or body: before routing, so production
 * answers exactly as for a path it has never had (partner-extensions.md, "Sandbox simulation").
 */
@Singleton
public class SandboxGate {

    static final String PREFIX = "/v1/sandbox";

    /** Read at the first call: filters are built before the runtime configuration is. */
    private final Instance<DeploymentConfig> deployment;

    public SandboxGate(Instance<DeploymentConfig> deployment) {
        this.deployment = deployment;
    }

    @ServerRequestFilter(preMatching = true)
    public Response check(ContainerRequestContext request) {
        if (deployment.get().sandbox()) {
            return null;
        }
        String path = request.getUriInfo().getPath();
        return path.equals(PREFIX) || path.startsWith(PREFIX + "/") ? ErrorResponses.forStatus(404) : null;
    }
}
