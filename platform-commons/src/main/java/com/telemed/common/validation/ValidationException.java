package com.telemed.common.validation;

import java.util.List;

/** Every issue of one input, answered as {@code 400 {"error": [issues]}}. */
public final class ValidationException extends RuntimeException {

    private final List<Issue> issues;

    public ValidationException(List<Issue> issues) {
        super("validation failed with " + issues.size() + " issue(s)", null, false, false);
        this.issues = List.copyOf(issues);
    }

    public List<Issue> issues() {
        return issues;
    }
}
