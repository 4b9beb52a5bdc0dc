package com.telemed.gateway.edge;

/** Where a call goes: one of the services (WEB: web-service, the pages), or the gateway's own endpoints. */
public enum Upstream {
    GATEWAY("gateway"), REQUESTS("requests-service"), MEMBERS("members-service"), CATALOGUE("catalogue-service"),
    MESSAGING("messaging-service"), BILLING("billing-service"), WEBHOOK("webhook-service"), WEB("web-service");

    private final String service;

    Upstream(String service) {
        this.service = service;
    }

    /** The service's name: as logs and the remote-call policy name it, and its key in {@code platform.service-urls}. */
    public String service() {
        return service;
    }
}
