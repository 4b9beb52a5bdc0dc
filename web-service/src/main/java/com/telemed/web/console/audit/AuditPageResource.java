package com.telemed.web.console.audit;

import com.telemed.common.access.Principal.Role;
import com.telemed.web.console.session.ConsoleSession;
import com.telemed.web.console.session.SignedIn;
import com.telemed.web.ops.OpsApi;
import com.telemed.web.ops.OpsClient;
import com.telemed.web.page.Pages;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * The audit log (people-and-pages.md, "Audit"; interfaces.md C): the gateway's {@code GET /ops/v1/audit}
 * filtered by actor id, action and target id, newest first, a page at a time ({@code after}: the
 * gateway's cursor). Administrators only.
 */
@Path("/console/audit")
@Produces(MediaType.TEXT_HTML)
public class AuditPageResource {

    static final DateTimeFormatter AT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    private final OpsClient ops;
    private final SignedIn signedIn;
    private final Template audit;

    public AuditPageResource(OpsClient ops, SignedIn signedIn, @Location("console-audit.html") Template audit) {
        this.ops = ops;
        this.signedIn = signedIn;
        this.audit = audit;
    }

    @GET
    public Response page(@QueryParam("actor") String actor, @QueryParam("action") String action, @QueryParam("targetId") String targetId,
                         @QueryParam("after") String after) {
        ConsoleSession session = signedIn.require(Role.ADMIN);
        String byActor = blankToNull(actor);
        String byAction = blankToNull(action);
        String byTarget = blankToNull(targetId);
        OpsApi.AuditPage page = ops.audit(session.token(), byActor, byAction, byTarget, blankToNull(after));
        List<AuditView.Row> rows = page == null || page.entries() == null ? List.of()
                : page.entries().stream().map(AuditPageResource::row).toList();
        String next = page == null || page.nextCursor() == null ? null : next(byActor, byAction, byTarget, page.nextCursor());
        return Pages.html(200, audit.data("page", new AuditView(nullToEmpty(byActor), nullToEmpty(byAction), nullToEmpty(byTarget), rows, next))
                .data("nav", signedIn.nav()));
    }

    private static AuditView.Row row(OpsApi.AuditEntry entry) {
        OpsApi.Actor actor = entry.actor();
        String who = actor == null ? "" : actor.name() != null ? actor.name() : nullToEmpty(actor.id());
        return new AuditView.Row(entry.id(), entry.at() == null ? "" : AT.format(entry.at()), actor == null ? "" : nullToEmpty(actor.type()), who,
                nullToEmpty(entry.action()), nullToEmpty(entry.targetType()), nullToEmpty(entry.targetId()), nullToEmpty(entry.partnerId()));
    }

    /** The next page: the same filters, then {@code after}. */
    static String next(String actor, String action, String targetId, String cursor) {
        List<String> query = new ArrayList<>();
        if (actor != null) {
            query.add("actor=" + Pages.encode(actor));
        }
        if (action != null) {
            query.add("action=" + Pages.encode(action));
        }
        if (targetId != null) {
            query.add("targetId=" + Pages.encode(targetId));
        }
        query.add("after=" + Pages.encode(cursor));
        return "/console/audit?" + String.join("&", query);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static String nullToEmpty(String value) {
        return value == null ? "" : value;
    }
}
