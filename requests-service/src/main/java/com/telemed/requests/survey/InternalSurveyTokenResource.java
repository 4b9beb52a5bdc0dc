package com.telemed.requests.survey;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /internal/survey-tokens?token=}: whose a returning member's survey token is, for the
 * web service's hosted survey page ({@code /surveys/t/<token>}), which has only the token: {@code 200
 * {"partnerId"}} for a token still usable (not expired, not used), else {@code 401 Invalid survey
 * token}. Under {@code /internal}, which the gateway never routes; the service proof is required as
 * for every call.
 */
@Path("/internal/survey-tokens")
@Produces(MediaType.APPLICATION_JSON)
public class InternalSurveyTokenResource {

    /** {@code {"partnerId": "..."}}. */
    public record TokenPartner(String partnerId) {
    }

    private final SurveyTokens tokens;

    public InternalSurveyTokenResource(SurveyTokens tokens) {
        this.tokens = tokens;
    }

    @GET
    public TokenPartner partner(@QueryParam("token") String token) {
        return new TokenPartner(tokens.partnerOf(token));
    }
}
