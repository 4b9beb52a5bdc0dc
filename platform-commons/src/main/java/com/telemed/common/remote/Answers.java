package com.telemed.common.remote;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The 4xx statuses an operation of another service answers on purpose (404 for an unknown id,
 * 400 with issues ...): {@link RemoteService#call(String, Answers, java.util.function.Supplier)}
 * hands them to the caller as the {@link jakarta.ws.rs.WebApplicationException} to read. Any
 * other 4xx is a broken contract between the two services, logged and answered 503.
 */
public record Answers(Set<Integer> statuses) {

    private static final Answers NONE = new Answers(Set.of());

    public Answers {
        statuses = Set.copyOf(statuses);
        for (int status : statuses) {
            if (status < 400 || status > 499) {
                throw new IllegalArgumentException("an answer is a 4xx status, not " + status);
            }
        }
    }

    /** No 4xx is an answer: every one is unexpected. */
    public static Answers none() {
        return NONE;
    }

    public static Answers of(int... statuses) {
        return new Answers(Arrays.stream(statuses).boxed().collect(Collectors.toSet()));
    }

    public boolean contains(int status) {
        return statuses.contains(status);
    }
}
