package com.telemed.gateway.edge;

/** Where a call goes: one of the services, or the gateway's own operator endpoints. */
public enum Upstream {
    GATEWAY, REQUESTS, MEMBERS, CATALOGUE, MESSAGING, BILLING, WEBHOOK
}
