package com.telemed.common.access;

import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.core.HttpHeaders;
import java.util.List;
import java.util.Optional;

/**
 * Who the current call acts as: its {@value Principal#HEADER} header, which a service believes because
 * the service proof covers it (the gateway sets it on every call it forwards and drops a client's own).
 * On {@code /ops} {@link OpsAccessFilter} has already refused a call without one; a resource asks this
 * only for what only it can decide ("as themselves": people-and-pages.md, "A prescriber acts in person").
 */
@RequestScoped
public class Caller {

    private final HttpHeaders headers;

    public Caller(HttpHeaders headers) {
        this.headers = headers;
    }

    /** The call's principal; empty without exactly one readable header. */
    public Optional<Principal> principal() {
        return of(headers.getRequestHeader(Principal.HEADER));
    }

    static Optional<Principal> of(List<String> values) {
        return values == null || values.size() != 1 ? Optional.empty() : Principal.parse(values.get(0));
    }
}
