package com.telemed.web.console.session;

/**
 * The sign-in page ({@code console-sign-in.html}): the email as typed (never the password), each field's
 * message or null, and the form's own message ({@code form-error}: a refused sign-in, too many attempts).
 */
public record SignInView(String email, String emailError, String passwordError, String formError) {

    static SignInView blank() {
        return new SignInView("", null, null, null);
    }

    public boolean hasErrors() {
        return emailError != null || passwordError != null || formError != null;
    }
}
