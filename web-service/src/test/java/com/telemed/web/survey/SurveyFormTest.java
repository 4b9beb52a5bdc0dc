package com.telemed.web.survey;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.web.requests.RequestsApi;
import jakarta.ws.rs.core.MultivaluedHashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The form's fields as the embed's body: types, blanks, the contact section. */
class SurveyFormTest {

    static final RequestsApi.Survey SURVEY = new RequestsApi.Survey("s1", "Intake", List.of(
            new RequestsApi.Question("b", "B?", "boolean", null, true),
            new RequestsApi.Question("n", "N?", "number", null, false),
            new RequestsApi.Question("c", "C?", "choice", List.of("x", "y"), false),
            new RequestsApi.Question("t", "T?", "text", null, false)));

    static String body(boolean withContact, String... pairs) {
        MultivaluedHashMap<String, String> form = new MultivaluedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            form.add(pairs[i], pairs[i + 1]);
        }
        return SurveyForm.body(SURVEY, form, withContact).toString();
    }

    @Test
    void eachTypeAsTheEmbedSendsIt() {
        assertEquals("{\"answers\":{\"b\":true,\"n\":-12.50,\"c\":\"y\",\"t\":\"  two\\nlines \"}}",
                body(false, "q-b", "true", "q-n", " -12.50 ", "q-c", "y", "q-t", "  two\nlines "));
        assertEquals("{\"answers\":{\"b\":false,\"n\":1E+3}}", body(false, "q-b", "false", "q-n", "1e3"));
        // What the form cannot type is sent as text, for requests-service's issue.
        assertEquals("{\"answers\":{\"b\":\"maybe\",\"n\":\"12,5\"}}", body(false, "q-b", "maybe", "q-n", "12,5"));
        // Blank is not answered; a text of spaces is an answer; unknown fields are not sent.
        assertEquals("{\"answers\":{\"t\":\"  \"}}", body(false, "q-b", "", "q-n", "  ", "q-c", "", "q-t", "  ", "q-zz", "1", "tz", "UTC"));
        assertEquals("{\"answers\":{}}", body(false));
    }

    @Test
    void contactOnlyWhereAskedAndOnlyWhenAnyOfItIsFilledIn() {
        assertEquals("{\"answers\":{}}", body(false, "firstName", "Ann", "lastName", "Lee", "email", "ann@example.com"));
        assertEquals("{\"answers\":{},\"contact\":{\"firstName\":\"Ann\",\"lastName\":\"Lee\",\"email\":\"ann@example.com\"}}",
                body(true, "firstName", " Ann", "lastName", "Lee ", "email", "ann@example.com"));
        assertEquals("{\"answers\":{}}", body(true, "firstName", " ", "lastName", "", "email", ""));
        assertEquals("{\"answers\":{},\"contact\":{\"email\":\"ann@example.com\"}}", body(true, "email", "ann@example.com"));
    }
}
