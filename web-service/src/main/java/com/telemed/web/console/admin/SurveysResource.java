package com.telemed.web.console.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.access.Principal.Role;
import com.telemed.web.console.session.ConsoleError;
import com.telemed.web.console.session.ConsoleSession;
import com.telemed.web.console.session.SignedIn;
import com.telemed.web.ops.OpsApi;
import com.telemed.web.ops.OpsClient;
import com.telemed.web.page.ErrorView;
import com.telemed.web.page.Pages;
import com.telemed.web.page.Refusal;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * Intake surveys (interfaces.md E2; operations-api.md, "Intake surveys"): find one by id, and its form for
 * {@code PUT /ops/v1/surveys/{id}} (which creates or replaces it): {@code title}, {@code drugIds}
 * comma-separated, {@code questions} as JSON. Questions that are not JSON are refused next to their field
 * with nothing asked. Administrators only: the form token, then the role, before anything is asked of the gateway.
 */
@Path("/console/surveys")
@Produces(MediaType.TEXT_HTML)
public class SurveysResource {

    static final String NOT_JSON = "Enter the questions as a JSON array";

    private final OpsClient ops;
    private final SignedIn signedIn;
    private final ObjectMapper mapper;
    private final Template surveys;
    private final Template survey;

    public SurveysResource(OpsClient ops, SignedIn signedIn, ObjectMapper mapper, @Location("console-surveys.html") Template surveys,
                           @Location("console-survey.html") Template survey) {
        this.ops = ops;
        this.signedIn = signedIn;
        this.mapper = mapper;
        this.surveys = surveys;
        this.survey = survey;
    }

    /** The find form; its {@code surveyId}: {@code 303} to that survey's form. */
    @GET
    public Response page(@QueryParam("surveyId") String surveyId) {
        signedIn.require(Role.ADMIN);
        String find = AdminForms.blankToNull(surveyId);
        if (find != null) {
            return Pages.seeOther("/console/surveys/" + Pages.encode(find));
        }
        return Pages.html(200, surveys.data("nav", signedIn.nav()));
    }

    /** The survey's form, filled from the API; an id it does not know ({@code 404}): the empty form that creates it. */
    @GET
    @Path("/{id}")
    public Response form(@PathParam("id") String id, @QueryParam("done") String done) {
        ConsoleSession session = signedIn.require(Role.ADMIN);
        OpsApi.Survey found;
        try {
            found = ops.survey(session.token(), id);
        } catch (Refusal refusal) {
            if (refusal.status() == 404) {
                return render(200, new SurveyFormView(id, true, "", null, null, "", "", "[]", Map.of(), session.csrf()));
            }
            if (refusal.status() == 400) {
                throw notFound();
            }
            throw refusal;
        }
        if (found == null || found.id() == null) {
            throw PartnersResource.unavailable();
        }
        String questions;
        try {
            questions = mapper.writerWithDefaultPrettyPrinter().writeValueAsString(found.questions() == null ? mapper.createArrayNode() : found.questions());
        } catch (JsonProcessingException impossible) {
            throw PartnersResource.unavailable();
        }
        String drugIds = found.drugIds() == null ? "" : String.join(", ", found.drugIds());
        return render(200, new SurveyFormView(id, false, PartnersResource.time(found.updatedAt()), "saved".equals(done) ? "Survey saved" : null,
                null, AdminForms.nullToEmpty(found.title()), drugIds, questions, Map.of(), session.csrf()));
    }

    /**
     * {@code {"title", "drugIds": [..], "questions": <the JSON typed>}}; the gateway's own checks answer
     * ({@code 400}: the form again, the issues next to their fields, everything typed kept); success: {@code 303}
     * to the form with {@code ?done=saved}.
     */
    @POST
    @Path("/{id}")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response save(@PathParam("id") String id, @FormParam("csrf") String csrf, @FormParam("title") String title,
                         @FormParam("drugIds") String drugIds, @FormParam("questions") String questions) {
        signedIn.checkForm(csrf);
        ConsoleSession session = signedIn.require(Role.ADMIN);
        String typedTitle = AdminForms.nullToEmpty(title);
        String typedDrugIds = AdminForms.nullToEmpty(drugIds);
        String typedQuestions = AdminForms.nullToEmpty(questions);
        JsonNode parsed;
        try {
            parsed = typedQuestions.isBlank() ? null : mapper.readTree(typedQuestions);
        } catch (JsonProcessingException notJson) {
            parsed = null;
        }
        if (parsed == null) {
            return render(400, new SurveyFormView(id, false, "", null, null, typedTitle, typedDrugIds, typedQuestions,
                    Map.of("questions", NOT_JSON), session.csrf()));
        }
        ObjectNode body = mapper.createObjectNode();
        body.put("title", typedTitle);
        ArrayNode ids = body.putArray("drugIds");
        Arrays.stream(typedDrugIds.split(",")).map(String::strip).filter(value -> !value.isEmpty()).forEach(ids::add);
        body.set("questions", parsed);
        try {
            ops.putSurvey(session.token(), id, body);
        } catch (Refusal refusal) {
            if (refusal.status() != 400) {
                throw refusal;
            }
            Map<String, String> errors = errors(refusal);
            String error = errors.remove("");
            return render(400, new SurveyFormView(id, false, "", null, error, typedTitle, typedDrugIds, typedQuestions, errors, session.csrf()));
        }
        return Pages.seeOther("/console/surveys/" + Pages.encode(id) + "?done=saved");
    }

    /**
     * The issues by field; an issue inside {@code drugIds} or {@code questions} names where it is
     * ({@code questions 0 type: Invalid enum value...}), the JSON having no field of its own per value.
     */
    static Map<String, String> errors(Refusal refusal) {
        Map<String, String> errors = new LinkedHashMap<>();
        if (refusal.issues().isEmpty()) {
            errors.put("", refusal.error() == null ? AdminForms.NOT_DONE : refusal.error());
            return errors;
        }
        for (JsonNode issue : refusal.issues()) {
            JsonNode path = issue.path("path");
            String first = path.path(0).asText("");
            String field = List.of("title", "drugIds", "questions").contains(first) ? first : "";
            String message = issue.path("message").asText("");
            if (message.isEmpty()) {
                message = "Check this value";
            }
            if (path.isArray() && path.size() > 1 && !field.isEmpty()) {
                String where = StreamSupport.stream(path.spliterator(), false).map(JsonNode::asText).collect(Collectors.joining(" "));
                message = where + ": " + message;
            }
            errors.merge(field, message, (was, more) -> was + "; " + more);
        }
        return errors;
    }

    static ConsoleError notFound() {
        return new ConsoleError(new ErrorView(404, "Survey not found", "There is no survey with this id. Check the id and find it again.",
                "/console/surveys", "Find a survey"));
    }

    private Response render(int status, SurveyFormView view) {
        return Pages.html(status, survey.data("page", view).data("nav", signedIn.nav()));
    }
}
