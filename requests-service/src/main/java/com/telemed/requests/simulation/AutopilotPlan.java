package com.telemed.requests.simulation;

import java.util.ArrayList;
import java.util.List;

/**
 * The steps the autopilot takes for a {@code simulation} (partner-extensions.md, "Sandbox
 * simulation"): {@code approve}: approve; {@code deny}: deny; {@code consultation}:
 * request_consultation, book, complete_consultation, approve. With {@code ship}, an approval is
 * followed by ship, then deliver.
 */
final class AutopilotPlan {

    static final String APPROVE = "approve";
    static final String DENY = "deny";
    static final String CONSULTATION = "consultation";

    private AutopilotPlan() {
    }

    static List<String> steps(String outcome, boolean ship) {
        List<String> steps = new ArrayList<>();
        switch (outcome) {
            case APPROVE -> steps.add(SimulationSchemas.APPROVE);
            case DENY -> steps.add(SimulationSchemas.DENY);
            case CONSULTATION -> steps.addAll(List.of(SimulationSchemas.REQUEST_CONSULTATION, SimulationSchemas.BOOK,
                    SimulationSchemas.COMPLETE_CONSULTATION, SimulationSchemas.APPROVE));
            default -> throw new IllegalArgumentException("No autopilot outcome " + outcome);
        }
        if (ship && !DENY.equals(outcome)) {
            steps.addAll(List.of(SimulationSchemas.SHIP, SimulationSchemas.DELIVER));
        }
        return List.copyOf(steps);
    }
}
