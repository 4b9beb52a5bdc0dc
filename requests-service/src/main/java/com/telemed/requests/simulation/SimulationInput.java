package com.telemed.requests.simulation;

/**
 * A simulated step, bound after {@link SimulationSchemas#SIMULATE} passed (absent fields null); the
 * autopilot builds its own with the action alone.
 */
record SimulationInput(String action, String itemId, String reason, String trackingNumber, String shipCarrier, String text) {

    static SimulationInput of(String action) {
        return new SimulationInput(action, null, null, null, null, null);
    }
}
