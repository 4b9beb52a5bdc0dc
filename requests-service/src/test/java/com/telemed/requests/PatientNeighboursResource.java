package com.telemed.requests;

import java.util.HashMap;
import java.util.Map;

/**
 * {@link FakeNeighboursResource} with a read timeout long enough for a test to hold the
 * neighbours' answers ({@link FakeNeighbours#hold}) while it checks what else still works.
 */
public class PatientNeighboursResource extends FakeNeighboursResource {

    @Override
    public Map<String, String> start() {
        Map<String, String> config = new HashMap<>(super.start());
        config.put("platform.remote.read-timeout", "30s");
        return config;
    }
}
