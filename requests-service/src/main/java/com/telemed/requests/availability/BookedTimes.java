package com.telemed.requests.availability;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The port through which slots learn the time a prescriber's appointments take (implemented by
 * {@code appointment}, which uses this package: a port here keeps the packages free of a cycle).
 */
public interface BookedTimes {

    /** The spans of the prescriber's appointments that are not cancelled and overlap {@code [from, to)}. */
    List<TimeSpan> booked(UUID prescriberId, Instant from, Instant to);
}
