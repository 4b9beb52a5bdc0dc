package com.telemed.web.booking;

import com.telemed.web.page.Pages;
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

/**
 * The booking link's page (people-and-pages.md, "Patient pages"; interfaces39.md C): {@code GET} shows
 * the link as it stands in the zone {@code tz}; the three forms post here and are answered {@code 303} to
 * the page again ({@code /book/<token>?tz=<zone>}: nothing else goes into an address), or with the page
 * and why the choice failed.
 */
@Path("/book/{token}")
@Produces(MediaType.TEXT_HTML)
public class BookingPageResource {

    private final BookingPages pages;
    private final Template booking;

    public BookingPageResource(BookingPages pages, @Location("booking.html") Template booking) {
        this.pages = pages;
        this.booking = booking;
    }

    @GET
    public Response page(@PathParam("token") String token, @QueryParam("tz") String tz) {
        return Pages.html(200, booking.data("page", pages.view(token, tz)));
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response book(@PathParam("token") String token, @FormParam("startTime") String startTime, @FormParam("tz") String tz) {
        return answer(pages.book(token, startTime, tz));
    }

    @POST
    @Path("/reschedule")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response reschedule(@PathParam("token") String token, @FormParam("startTime") String startTime,
                               @FormParam("tz") String tz) {
        return answer(pages.reschedule(token, startTime, tz));
    }

    @POST
    @Path("/cancel")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response cancel(@PathParam("token") String token, @FormParam("tz") String tz) {
        return answer(pages.cancel(token, tz));
    }

    private Response answer(BookingPages.Outcome outcome) {
        return outcome.location() != null
                ? Pages.seeOther(outcome.location())
                : Pages.html(outcome.status(), booking.data("page", outcome.page()));
    }
}
