package com.telemed.requests.availability;

import java.time.Instant;

/** A validated {@code ?from=&to=} of a slots read ({@link AvailabilitySchemas#range}): {@code to} after {@code from}, at most 31 days on. */
public record SlotRange(Instant from, Instant to) {
}
