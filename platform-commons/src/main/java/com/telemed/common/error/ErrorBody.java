package com.telemed.common.error;

/** The one error shape of the platform: a string, or an array of validation issues. */
public record ErrorBody(Object error) {

    public static ErrorBody of(String message) {
        return new ErrorBody(message);
    }
}
