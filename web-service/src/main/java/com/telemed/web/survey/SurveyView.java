package com.telemed.web.survey;

import java.util.List;

/**
 * What the hosted survey page shows ({@code survey.html}): the definition's questions in order, each
 * with what was submitted and its issue, the contact section (a new patient's page only), and the
 * error summary.
 *
 * @param action where the form posts: the page's own path and its {@code key} and {@code return}
 */
public record SurveyView(String title, String action, List<QuestionField> questions, ContactFields contact,
                         List<ErrorLink> errors) {

    public boolean hasErrors() {
        return !errors.isEmpty();
    }

    public boolean anyRequired() {
        return questions.stream().anyMatch(QuestionField::required);
    }

    /**
     * One question. {@code id} is the first input's id (the error summary links to it), {@code name} the
     * form field, {@code value} what was submitted (empty at first), {@code error} its issue or null.
     */
    public record QuestionField(String id, String name, String text, String type, boolean required, String value,
                                List<OptionField> options, String error) {

        public boolean choices() {
            return type.equals("boolean") || type.equals("choice");
        }

        public boolean number() {
            return type.equals("number");
        }

        public String errorId() {
            return id + "-error";
        }
    }

    /** A radio of a boolean or choice question. */
    public record OptionField(String id, String value, String label, boolean checked) {
    }

    /** The optional contact section of a new patient's survey. */
    public record ContactFields(List<TextField> fields) {
    }

    public record TextField(String id, String name, String label, String type, String autocomplete, int maxLength,
                            String value, String error) {

        public String errorId() {
            return id + "-error";
        }
    }

    /** An entry of the error summary: the field it links to and what is wrong. */
    public record ErrorLink(String href, String text) {
    }
}
