package com.telemed.requests.simulation;

import com.telemed.requests.request.RequestViews;

/** The answers of {@code /v1/sandbox}. */
final class SimulationViews {

    private SimulationViews() {
    }

    /** {@code 200 { request }}: the request as {@code GET /v1/requests/:id} shows it after the step committed. */
    record Simulated(RequestViews.Detail request) {
    }
}
