package com.telemed.web.console.conversation;

import com.telemed.common.access.Principal.Role;
import com.telemed.web.console.session.ConsoleConfig;
import com.telemed.web.console.session.ConsoleSession;
import com.telemed.web.console.session.SignedIn;
import com.telemed.web.page.Pages;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The conversations page (interfaces.md D1; people-and-pages.md, "The console"): the threads the person's
 * scope reaches, unread patient messages first, as messaging-service lists them through the gateway, a page
 * at a time ({@code after}); "Unread only" ({@code unread=1}). Its table alone ({@code /table}) is what
 * {@code app.js} fetches every {@code web.console.refresh-seconds} to refresh it without a reload, with the
 * nav's unread text. Prescribers, support and administrators (who list threads but do not open them).
 */
@Path("/console/conversations")
@Produces(MediaType.TEXT_HTML)
public class ConversationResource {

    private final ConversationPages pages;
    private final SignedIn signedIn;
    private final ConsoleConfig config;
    private final Template conversations;
    private final Template table;

    public ConversationResource(ConversationPages pages, SignedIn signedIn, ConsoleConfig config,
                                @Location("console-conversations.html") Template conversations,
                                @Location("console-conversations-table.html") Template table) {
        this.pages = pages;
        this.signedIn = signedIn;
        this.config = config;
        this.conversations = conversations;
        this.table = table;
    }

    @GET
    public Response list(@QueryParam("unread") String unread, @QueryParam("after") String after) {
        ConsoleSession session = signedIn.require(Role.PRESCRIBER, Role.SUPPORT, Role.ADMIN);
        boolean unreadOnly = "1".equals(unread);
        ConversationTable rows = pages.table(session, unreadOnly, blankToNull(after), signedIn.unread());
        return Pages.html(200, conversations.data("page", new ConversationsView(unreadOnly, rows, config.refreshSeconds()))
                .data("table", rows).data("nav", signedIn.nav()));
    }

    /** The table alone, as the page has it: the live refresh's fragment. */
    @GET
    @Path("/table")
    public Response table(@QueryParam("unread") String unread, @QueryParam("after") String after) {
        ConsoleSession session = signedIn.require(Role.PRESCRIBER, Role.SUPPORT, Role.ADMIN);
        return Pages.html(200, table.data("table", pages.table(session, "1".equals(unread), blankToNull(after), signedIn.unread())));
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
