package com.telemed.web.survey;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.web.requests.RequestsApi;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import java.math.BigDecimal;
import java.text.NumberFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The survey form both ways: its fields as the body requests-service's embed endpoint checks
 * ({@code {answers, contact?}}: a boolean is {@code true}/{@code false}, a number a JSON number, a
 * choice or text its text, an empty field not answered), and that endpoint's issues back onto the
 * fields they name ({@code ["answers", "<questionId>"]}, {@code ["contact", "email"]}), in the patient's
 * words. The checks are requests-service's own, so the hosted page and the embed accept exactly the
 * same answers; what the form cannot express (a number field holding letters) is sent as it is and
 * comes back as that question's issue.
 */
final class SurveyForm {

    static final String ANSWER_PREFIX = "q-";
    static final List<String> CONTACT = List.of("firstName", "lastName", "email");
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private SurveyForm() {
    }

    /** The submission's body. Contact only where the page asks for it, and only when any of it was filled in. */
    static ObjectNode body(RequestsApi.Survey survey, MultivaluedMap<String, String> form, boolean withContact) {
        ObjectNode answers = JSON.objectNode();
        for (RequestsApi.Question question : survey.questions()) {
            String value = form.getFirst(ANSWER_PREFIX + question.id());
            if (value == null || value.isEmpty() || (!question.type().equals("text") && value.isBlank())) {
                continue;
            }
            answers.set(question.id(), answer(question.type(), value));
        }
        ObjectNode body = JSON.objectNode();
        body.set("answers", answers);
        if (withContact) {
            ObjectNode contact = JSON.objectNode();
            for (String field : CONTACT) {
                String value = form.getFirst(field);
                if (value != null && !value.isBlank()) {
                    contact.put(field, value.strip());
                }
            }
            if (!contact.isEmpty()) {
                body.set("contact", contact);
            }
        }
        return body;
    }

    private static JsonNode answer(String type, String value) {
        switch (type) {
            case "boolean":
                if (value.equals("true") || value.equals("false")) {
                    return JSON.booleanNode(Boolean.parseBoolean(value));
                }
                return JSON.textNode(value);
            case "number":
                try {
                    return JSON.numberNode(new BigDecimal(value.strip()));
                } catch (NumberFormatException notANumber) {
                    return JSON.textNode(value);
                }
            default:
                return JSON.textNode(value);
        }
    }

    /** The page: the questions with what was submitted ({@code form}, null at first) and the issues of a refused submission. */
    static SurveyView view(RequestsApi.Survey survey, String action, boolean withContact, MultivaluedMap<String, String> form,
                           List<JsonNode> issues) {
        MultivaluedMap<String, String> submitted = form == null ? new MultivaluedHashMap<>() : form;
        Map<String, String> answerErrors = new LinkedHashMap<>();
        Map<String, String> contactErrors = new LinkedHashMap<>();
        List<String> otherErrors = new ArrayList<>();
        Map<String, RequestsApi.Question> byId = new LinkedHashMap<>();
        survey.questions().forEach(question -> byId.put(question.id(), question));
        for (JsonNode issue : issues) {
            List<String> path = new ArrayList<>();
            issue.path("path").forEach(part -> path.add(part.asText()));
            if (path.size() == 2 && path.get(0).equals("answers") && byId.containsKey(path.get(1))) {
                answerErrors.putIfAbsent(path.get(1), answerMessage(byId.get(path.get(1)).type(), issue));
            } else if (withContact && path.size() == 2 && path.get(0).equals("contact") && CONTACT.contains(path.get(1))) {
                contactErrors.putIfAbsent(path.get(1), contactMessage(path.get(1), issue));
            } else {
                otherErrors.add(issue.path("message").asText("There is a problem with your answers"));
            }
        }
        List<SurveyView.QuestionField> questions = new ArrayList<>();
        List<SurveyView.ErrorLink> errors = new ArrayList<>();
        for (RequestsApi.Question question : survey.questions()) {
            String name = ANSWER_PREFIX + question.id();
            String value = submitted.getFirst(name) == null ? "" : submitted.getFirst(name);
            List<SurveyView.OptionField> options = new ArrayList<>();
            List<String[]> choices = question.type().equals("boolean")
                    ? List.of(new String[] {"true", "Yes"}, new String[] {"false", "No"})
                    : question.type().equals("choice") && question.options() != null
                            ? question.options().stream().map(option -> new String[] {option, option}).toList()
                            : List.of();
            for (int i = 0; i < choices.size(); i++) {
                String[] choice = choices.get(i);
                options.add(new SurveyView.OptionField(i == 0 ? name : name + "-" + i, choice[0], choice[1], choice[0].equals(value)));
            }
            String error = answerErrors.get(question.id());
            questions.add(new SurveyView.QuestionField(name, name, question.text(), question.type(), question.required(), value,
                    options, error));
            if (error != null) {
                errors.add(new SurveyView.ErrorLink("#" + name, error));
            }
        }
        SurveyView.ContactFields contact = null;
        if (withContact) {
            List<SurveyView.TextField> fields = new ArrayList<>();
            fields.add(contactField("firstName", "First name", "text", "given-name", 100, submitted, contactErrors));
            fields.add(contactField("lastName", "Last name", "text", "family-name", 100, submitted, contactErrors));
            fields.add(contactField("email", "Email address", "email", "email", 254, submitted, contactErrors));
            for (SurveyView.TextField field : fields) {
                if (field.error() != null) {
                    errors.add(new SurveyView.ErrorLink("#" + field.id(), field.error()));
                }
            }
            contact = new SurveyView.ContactFields(fields);
        }
        otherErrors.forEach(text -> errors.add(new SurveyView.ErrorLink("#survey-form", text)));
        return new SurveyView(survey.title(), action, questions, contact, errors);
    }

    private static SurveyView.TextField contactField(String name, String label, String type, String autocomplete, int maxLength,
                                                     MultivaluedMap<String, String> submitted, Map<String, String> errors) {
        String value = submitted.getFirst(name) == null ? "" : submitted.getFirst(name);
        return new SurveyView.TextField("contact-" + name, name, label, type, autocomplete, maxLength, value, errors.get(name));
    }

    /** A question's issue in the patient's words. */
    static String answerMessage(String type, JsonNode issue) {
        String code = issue.path("code").asText();
        boolean missing = code.equals("invalid_type") && issue.path("received").asText().equals("undefined");
        switch (code) {
            case "invalid_type":
                return switch (type) {
                    case "boolean" -> "Select yes or no";
                    case "choice" -> "Select an answer";
                    case "number" -> missing ? "Enter a number" : "Enter a number, like 12 or 12.5";
                    default -> "Enter your answer";
                };
            case "invalid_enum_value":
                return "Select one of the answers shown";
            case "too_big":
                return type.equals("number")
                        ? "Enter a number no larger than " + plain(issue.path("maximum"))
                        : "Enter " + plain(issue.path("maximum")) + " characters or fewer";
            case "too_small":
                return type.equals("number") ? "Enter a number no smaller than " + plain(issue.path("minimum")) : "Enter your answer";
            case "not_multiple_of":
                return "Enter a number with no more than 6 decimal places";
            default:
                return issue.path("message").asText("Check your answer");
        }
    }

    /** A contact field's issue in the patient's words. */
    static String contactMessage(String field, JsonNode issue) {
        String code = issue.path("code").asText();
        String what = switch (field) {
            case "firstName" -> "first name";
            case "lastName" -> "last name";
            default -> "email address";
        };
        if (code.equals("too_big")) {
            return "Enter a " + what + " of " + plain(issue.path("maximum")) + " characters or fewer";
        }
        if (field.equals("email") && code.equals("invalid_string")) {
            return "Enter an email address in the correct format, like name@example.com";
        }
        return "Enter your " + what;
    }

    private static String plain(JsonNode number) {
        if (!number.isNumber()) {
            return number.asText();
        }
        NumberFormat format = NumberFormat.getNumberInstance(Locale.ENGLISH);
        format.setMaximumFractionDigits(6);
        return format.format(number.decimalValue());
    }
}
