package com.telemed.common.request;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.jboss.logging.Logger;

/** Test-only endpoint that logs one line inside the call, the way a service's resource does. */
@Path("/probe/log")
public class LogProbeResource {

    static final String LOGGER = "com.telemed.common.request.LogProbeResource";
    static final String MESSAGE = "probe line";
    private static final Logger LOG = Logger.getLogger(LOGGER);

    @GET
    public String log() {
        LOG.info(MESSAGE);
        return "logged";
    }
}
