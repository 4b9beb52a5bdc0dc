package com.telemed.web.survey;

import com.telemed.common.partner.PartnerContext;
import com.telemed.web.page.PageHeaders;
import com.telemed.web.page.Pages;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;

/**
 * The hosted survey pages (interfaces39.md C): {@code /surveys/<surveyId>?key=pk_...&return=<url>} for a
 * new patient (the gateway forwards the key's partner as {@code X-Partner-Id}; none: the 401 page) and
 * {@code /surveys/t/<token>?return=<url>} for a returning member. {@code GET} shows the form, {@code POST}
 * submits it: the page again with the issues next to their fields ({@code 400}), or the thank-you page,
 * or {@code 303} to {@code return} with {@code ?responseId=} when its origin is allowed.
 */
@Path("/surveys")
@Produces(MediaType.TEXT_HTML)
public class SurveyPageResource {

    private final SurveyPages pages;
    private final Template survey;
    private final Template thanks;

    public SurveyPageResource(SurveyPages pages, @Location("survey.html") Template survey, @Location("thanks.html") Template thanks) {
        this.pages = pages;
        this.survey = survey;
        this.thanks = thanks;
    }

    @GET
    @Path("/{surveyId}")
    public Response page(@PathParam("surveyId") String surveyId, @HeaderParam(PartnerContext.HEADER) String partnerId,
                         @QueryParam("key") String key, @QueryParam("return") String returnUrl, RoutingContext context) {
        return answer(pages.show(SurveyPages.Source.byKey(surveyId, partnerId, key, returnUrl)), context);
    }

    @POST
    @Path("/{surveyId}")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response submit(@PathParam("surveyId") String surveyId, @HeaderParam(PartnerContext.HEADER) String partnerId,
                           @QueryParam("key") String key, @QueryParam("return") String returnUrl,
                           MultivaluedMap<String, String> form, RoutingContext context) {
        return answer(pages.submit(SurveyPages.Source.byKey(surveyId, partnerId, key, returnUrl), form), context);
    }

    @GET
    @Path("/t/{token}")
    public Response pageOfToken(@PathParam("token") String token, @HeaderParam(PartnerContext.HEADER) String partnerId,
                                @QueryParam("key") String key, @QueryParam("return") String returnUrl, RoutingContext context) {
        return answer(pages.show(SurveyPages.Source.byToken(token, partnerId, key, returnUrl)), context);
    }

    @POST
    @Path("/t/{token}")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response submitWithToken(@PathParam("token") String token, @HeaderParam(PartnerContext.HEADER) String partnerId,
                                    @QueryParam("key") String key, @QueryParam("return") String returnUrl,
                                    MultivaluedMap<String, String> form, RoutingContext context) {
        return answer(pages.submit(SurveyPages.Source.byToken(token, partnerId, key, returnUrl), form), context);
    }

    private Response answer(SurveyPages.Answer answer, RoutingContext context) {
        if (answer.location() != null) {
            return Pages.seeOther(answer.location());
        }
        if (answer.formOrigin() != null) {
            PageHeaders.allowFormAction(context, answer.formOrigin());
        }
        return answer.survey() != null
                ? Pages.html(answer.status(), survey.data("page", answer.survey()))
                : Pages.html(answer.status(), thanks.data("page", answer.thanks()));
    }
}
