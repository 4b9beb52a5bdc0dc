package com.telemed.web.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.web.PageCalls;
import com.telemed.web.console.session.ConsoleProductionSettings;
import com.telemed.web.console.session.ConsoleSession;
import com.telemed.web.console.session.SessionSeal;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * How the console tests call its pages as a signed-in person (a cookie sealed as the service seals it,
 * with the development key of the test profile) and the rules every console page keeps besides the
 * patient pages' ({@link PageCalls#pageOnly}): a label for every field, a form token in every form that
 * posts (but the sign-in), only ids and filters in addresses.
 */
public final class ConsoleCalls {

    public static final String TOKEN = "ops_0123456789abcdef0123456789abcdef";
    public static final String ACCOUNT_ID = "8a7d7f3e-5c1b-4f3a-9d2e-1b2c3d4e5f60";
    public static final String PRESCRIBER_ID = "2b1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e9f";
    /** The query parameters a console address may carry: filters, ids, a cursor, the notice. Never patient data. */
    private static final Set<String> ADDRESS_PARAMETERS = Set.of("drugId", "partnerId", "mine", "actor", "action", "targetId", "after", "done",
            "event", "unread", "surveyId", "prescriberId");

    private ConsoleCalls() {
    }

    /** A session of {@code roles} as a sign-in makes it, sealed at {@code signedInAt} and last seen {@code lastSeenAt}. */
    public record TestSession(String cookie, String csrf) {
    }

    public static TestSession session(List<String> roles, String prescriberId, Instant signedInAt, Instant lastSeenAt) {
        String csrf = "csrf-" + UUID.randomUUID();
        ConsoleSession session = new ConsoleSession(TOKEN, ACCOUNT_ID, "Dr Ada <Okafor>", roles, prescriberId, csrf, signedInAt, lastSeenAt);
        return new TestSession(seal(List.of(ConsoleProductionSettings.DEVELOPMENT_KEY)).seal(session), csrf);
    }

    public static TestSession session(List<String> roles, String prescriberId) {
        Instant now = Instant.now();
        return session(roles, prescriberId, now, now);
    }

    /** An administrator's header links, in their order (tags/consoleheader.html). */
    public static final List<String> ADMIN_NAV = List.of("Audit log", "Conversations", "Partners", "Accounts", "Drugs", "Surveys",
            "Prescribers", "Webhook deliveries", "Pharmacy keys", "Failed transmissions");

    public static TestSession prescriber() {
        return session(List.of("prescriber"), PRESCRIBER_ID);
    }

    public static TestSession support() {
        return session(List.of("support"), null);
    }

    public static TestSession admin() {
        return session(List.of("admin"), null);
    }

    public static SessionSeal seal(List<String> keys) {
        return new SessionSeal(keys, Duration.ofMinutes(30), Duration.ofHours(12), Clock.systemUTC());
    }

    public static RequestSpecification as(TestSession session) {
        return PageCalls.browser().cookie("console_session", session.cookie());
    }

    public static RequestSpecification formAs(TestSession session) {
        return PageCalls.form().cookie("console_session", session.cookie());
    }

    /** A console page: the page rules, its own, and for a signed-in person the header (nav and sign-out). */
    public static Document page(Response response, int status) {
        Document document = PageCalls.pageOnly(response, status, PageCalls.CSP);
        for (Element field : document.select("input:not([type=hidden]), select, textarea")) {
            assertTrue(!field.id().isEmpty() && document.selectFirst("label[for=" + field.id() + "]") != null,
                    () -> "a field without its label: " + field);
        }
        for (Element form : document.select("form[method=post]")) {
            if (!form.attr("action").equals("/console/sign-in")) {
                assertNotNull(form.selectFirst("input[type=hidden][name=csrf]"), () -> "a form without its token: " + form);
            }
        }
        for (Element element : document.select("a[href], form[action]")) {
            String address = element.hasAttr("href") ? element.attr("href") : element.attr("action");
            String query = URI.create(address).getRawQuery();
            if (query != null) {
                Arrays.stream(query.split("&")).map(pair -> pair.split("=", 2)[0])
                        .forEach(name -> assertTrue(ADDRESS_PARAMETERS.contains(name), () -> "query parameter " + name + " in " + address));
            }
        }
        for (Element form : document.select("form:not([method=post])")) {
            form.select("input[name], select[name], textarea[name]").forEach(field -> assertTrue(ADDRESS_PARAMETERS.contains(field.attr("name")),
                    () -> "a GET form sends " + field.attr("name")));
        }
        return document;
    }

    public static void assertSeeOther(Response response, String location) {
        assertEquals(303, response.statusCode(), () -> "status of " + response.asString());
        assertEquals(location, response.header("Location"));
        PageCalls.assertHeaders(response, PageCalls.CSP);
    }

    /** An item as requests-service's {@code ReviewViews.Item} has it. */
    public static Map<String, Object> item(String itemId, String drugName, String status) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("itemId", itemId);
        item.put("drugId", "drug-" + drugName.toLowerCase());
        item.put("drugName", drugName);
        item.put("dosage", "10 mg");
        item.put("requestedSkuId", "sku_" + drugName.toLowerCase());
        item.put("requestedSku", drugName + " 10 mg x 30");
        item.put("selectedSkuId", null);
        item.put("status", status);
        item.put("prescriberId", null);
        item.put("pharmacyId", "sandbox");
        return item;
    }

    /** A request as requests-service's {@code ReviewViews.Reviewed} has it. */
    public static Map<String, Object> reviewed(String id, String memberName, String prescriberId, String createdAt, List<Map<String, Object>> items) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("id", id);
        request.put("partnerId", "partner-1");
        request.put("memberId", "1b1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e9f");
        request.put("memberName", memberName);
        request.put("memberState", "CA");
        request.put("status", "pending");
        request.put("storedStatus", "pending");
        request.put("prescriberId", prescriberId);
        request.put("providerId", null);
        request.put("caseNotes", "Q: Any allergies?\nA: No");
        request.put("lineItems", items);
        request.put("createdAt", createdAt);
        request.put("updatedAt", createdAt);
        return request;
    }
}
