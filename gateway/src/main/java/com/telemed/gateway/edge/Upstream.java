package com.telemed.gateway.edge;

/** Where a call goes: one of the services (WEB: web-service, the pages), or the gateway's own endpoints. */
public enum Upstream {
    GATEWAY, REQUESTS, MEMBERS, CATALOGUE, MESSAGING, BILLING, WEBHOOK, WEB
}
