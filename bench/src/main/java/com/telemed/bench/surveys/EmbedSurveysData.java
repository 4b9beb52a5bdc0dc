package com.telemed.bench.surveys;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.bench.support.GatewayApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * What the run submits to, made through the gateway as an operator would: a partner (API key and
 * publishable key) whose embed origins allow {@link #ORIGIN}, a drug, and an intake survey of five
 * questions (one of each type, a text one optional, a disqualifying boolean) for that drug. The
 * submission is a patient's realistic answer to all five plus the contact section.
 */
record EmbedSurveysData(String partnerId, String apiKey, String publishableKey) {

    static final String DRUG_ID = "bench-semaglutide";
    static final String SURVEY_ID = "bench-weight-intake";
    /** The partner's page that embeds the survey (https: allowed in production as in sandbox). */
    static final String ORIGIN = "https://intake.bench-health.example";

    static final String SUBMISSION_PATH = "/v2/embed/surveys/" + SURVEY_ID + "/responses";
    static final String DEFINITION_PATH = "/v2/embed/surveys/" + SURVEY_ID;

    /** 243 bytes: five answers and the contact, as the embed's script posts them. */
    static final String SUBMISSION = "{\"answers\":{\"age\":42,\"pregnant\":false,\"goal\":\"lose\",\"weight_kg\":92.5,"
            + "\"medications\":\"Metformin 500 mg twice daily; lisinopril 10 mg once daily\"},"
            + "\"contact\":{\"firstName\":\"Ada\",\"lastName\":\"Lovelace-Bench\",\"email\":\"ada.lovelace.bench@example.com\"}}";

    private static final String DRUG = """
            {"name": "Semaglutide (bench)", "classification": "non-controlled",
             "skus": [{"label": "2.5 mg/mL vial", "packageSize": 2,
                       "concentration": {"value": 2.5, "activeUnit": "mg", "baseUnit": "mL"}, "active": true}],
             "pharmacy": {"id": "sandbox-pharmacy", "method": "integration_a"}}""";

    private static final String SURVEY = """
            {"title": "Weight management intake (bench)", "drugIds": ["%s"],
             "questions": [
               {"id": "age", "text": "How old are you?", "type": "number", "required": true},
               {"id": "pregnant", "text": "Are you pregnant, breastfeeding or planning a pregnancy?", "type": "boolean",
                "required": true, "disqualifyWhen": {"equals": true}},
               {"id": "goal", "text": "What is your goal?", "type": "choice", "options": ["lose", "maintain"], "required": true},
               {"id": "weight_kg", "text": "What is your current weight in kg?", "type": "number", "required": true},
               {"id": "medications", "text": "Which medications do you take?", "type": "text", "required": false}
             ]}""".formatted(DRUG_ID);

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    /** One submission's answer: status, body and the gateway's {@code RateLimit-Policy}. */
    record Answer(int status, String body, String rateLimitPolicy) {
    }

    static EmbedSurveysData create(GatewayApi api) throws Exception {
        JsonNode created = api.partner("Bench Intake Health");
        String partnerId = created.path("partner").path("id").asText();
        api.send("PUT", "/ops/v1/partners/" + partnerId + "/embed-origins", "{\"origins\": [\"" + ORIGIN + "\"]}", 200);
        api.send("PUT", "/ops/v1/drugs/" + DRUG_ID, DRUG, 200);
        api.send("PUT", "/ops/v1/surveys/" + SURVEY_ID, SURVEY, 200);
        return new EmbedSurveysData(partnerId, created.path("apiKey").asText(), created.path("publishableKey").asText());
    }

    /** The browser's credentials: the publishable key and the page's origin. */
    String[] embedHeaders() {
        return new String[] {"x-service-publishable-key", publishableKey, "Origin", ORIGIN};
    }

    /** The partner's server-side credential. */
    String[] partnerHeaders() {
        return new String[] {"x-api-key", apiKey};
    }

    /** One submission through {@code gateway}, outside the load: a broken path fails here, not as a column of errors. */
    Answer submitOnce(URI gateway) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(gateway.resolve(SUBMISSION_PATH))
                .timeout(Duration.ofSeconds(15)).headers(embedHeaders()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(SUBMISSION)).build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.body(),
                response.headers().firstValue("RateLimit-Policy").orElse("(none)"));
    }
}
