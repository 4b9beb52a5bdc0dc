package com.telemed.web.console.queue;

import com.telemed.common.access.Principal.Role;
import com.telemed.web.console.session.ConsoleConfig;
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
import java.util.stream.Collectors;

/**
 * The review queue (interfaces.md C; people-and-pages.md, "The console"): requests-service's queue
 * through the gateway, filtered by drug, partner and, for a prescriber, "claimed by me" (their own
 * prescriber id, never one from the address); a prescriber claims an unclaimed request from here
 * ({@code request.RequestPageResource#claim}). Prescribers and support only. Its table alone
 * ({@code /console/queue/table}) is what {@code app.js} fetches every {@code web.console.refresh-seconds}.
 */
@Path("/console")
@Produces(MediaType.TEXT_HTML)
public class QueueResource {

    static final DateTimeFormatter CREATED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);

    private final OpsClient ops;
    private final SignedIn signedIn;
    private final Template queue;
    private final Template table;
    private final ConsoleConfig config;

    public QueueResource(OpsClient ops, SignedIn signedIn, @Location("console-queue.html") Template queue,
                         @Location("console-queue-table.html") Template table, ConsoleConfig config) {
        this.ops = ops;
        this.signedIn = signedIn;
        this.queue = queue;
        this.table = table;
        this.config = config;
    }

    @GET
    @Path("/queue")
    public Response queue(@QueryParam("drugId") String drugId, @QueryParam("partnerId") String partnerId, @QueryParam("mine") String mine) {
        return Pages.html(200, queue.data("page", view(drugId, partnerId, mine)).data("nav", signedIn.nav()));
    }

    /** The table alone, as the page has it: the live refresh's fragment ({@code app.js}). */
    @GET
    @Path("/queue/table")
    public Response table(@QueryParam("drugId") String drugId, @QueryParam("partnerId") String partnerId, @QueryParam("mine") String mine) {
        return Pages.html(200, table.data("page", view(drugId, partnerId, mine)));
    }

    private QueueView view(String drugId, String partnerId, String mine) {
        ConsoleSession session = signedIn.require(Role.PRESCRIBER, Role.SUPPORT);
        String drug = blankToNull(drugId);
        String partner = blankToNull(partnerId);
        boolean mineOnly = session.prescriber() && "1".equals(mine);
        List<OpsApi.Reviewed> requests = ops.queue(session.token(), drug, partner, mineOnly ? session.prescriberId() : null);
        List<QueueView.Row> rows = requests.stream().map(request -> row(request, session.prescriber())).toList();
        List<String> query = new ArrayList<>();
        if (drug != null) {
            query.add("drugId=" + Pages.encode(drug));
        }
        if (partner != null) {
            query.add("partnerId=" + Pages.encode(partner));
        }
        if (mineOnly) {
            query.add("mine=1");
        }
        return new QueueView(drug == null ? "" : drug, partner == null ? "" : partner, mineOnly, session.prescriber(), rows, session.csrf(),
                "/console/queue/table" + (query.isEmpty() ? "" : "?" + String.join("&", query)), signedIn.unread(), config.refreshSeconds());
    }

    private static QueueView.Row row(OpsApi.Reviewed request, boolean prescriber) {
        List<OpsApi.Item> items = request.lineItems() == null ? List.of() : request.lineItems();
        String drugs = items.stream().map(item -> item.drugName() != null ? item.drugName() : item.drugId())
                .collect(Collectors.joining(", "));
        String patient = (request.memberName() == null ? "" : request.memberName())
                + (request.memberState() == null ? "" : " (" + request.memberState() + ")");
        return new QueueView.Row(request.id(), request.createdAt() == null ? "" : CREATED.format(request.createdAt()), request.partnerId(),
                patient.strip(), drugs.isEmpty() ? "Consultation" : drugs, request.status(),
                request.prescriberId() == null ? "-" : request.prescriberId(), prescriber && request.prescriberId() == null);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
