package com.telemed.web.survey;

/** The thank-you page after a submission ({@code thanks.html}). */
public record ThanksView(String title, String message) {
}
