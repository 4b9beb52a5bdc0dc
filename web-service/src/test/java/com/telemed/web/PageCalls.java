package com.telemed.web;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.RestAssured;
import io.restassured.config.EncoderConfig;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;
import io.restassured.specification.RequestSpecification;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.Arrays;
import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * How the tests call the pages as a browser does through the gateway (signed by testkit's
 * {@code SignedQuarkusTests}, redirects not followed, forms in UTF-8) and read them (jsoup, as a
 * browser's parser does), and the rules every answer keeps.
 */
public final class PageCalls {

    /** The policy of every page whose forms post only to the service. */
    public static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self';"
            + " base-uri 'none'; frame-ancestors 'none'";
    public static final String HTML = "text/html;charset=UTF-8";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The only query parameters a page's address or form action may carry: never patient data. */
    private static final Set<String> ADDRESS_PARAMETERS = Set.of("tz", "key", "return");

    private PageCalls() {
    }

    public static RequestSpecification browser() {
        // Addresses are written as a browser sends them, already encoded.
        return given().redirects().follow(false).urlEncodingEnabled(false)
                .config(RestAssured.config().encoderConfig(EncoderConfig.encoderConfig().defaultContentCharset("UTF-8")));
    }

    /** A form post, as a browser sends one: its fields encoded in UTF-8 (the address is left as written). */
    public static RequestSpecification form() {
        return browser().contentType("application/x-www-form-urlencoded; charset=UTF-8").filter(PageCalls::encodedForm);
    }

    private static Response encodedForm(FilterableRequestSpecification request, FilterableResponseSpecification response,
                                        FilterContext context) {
        Map<String, ?> fields = new LinkedHashMap<>(request.getFormParams());
        fields.keySet().forEach(request::removeFormParam);
        // A field given more than once (checkboxes of one name) is a list: each value sent, in order.
        request.body(fields.entrySet().stream()
                .flatMap(field -> (field.getValue() instanceof java.util.Collection<?> values ? values.stream() : java.util.stream.Stream.of(field.getValue()))
                        .map(value -> URLEncoder.encode(field.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(String.valueOf(value), StandardCharsets.UTF_8)))
                .collect(Collectors.joining("&")));
        return context.next(request, response);
    }

    /** The answer is a page: HTML in UTF-8 with the headers every answer has ({@link #CSP}). */
    public static Document page(Response response, int status) {
        return page(response, status, CSP);
    }

    public static Document page(Response response, int status, String csp) {
        Document document = pageOnly(response, status, csp);
        assertNoPatientDataInAddresses(document);
        return document;
    }

    /**
     * The rules of every page but the patient pages' address rule ({@link #assertNoPatientDataInAddresses}):
     * the console's pages, whose filters and links carry ids in their query, check theirs themselves.
     */
    public static Document pageOnly(Response response, int status, String csp) {
        assertEquals(status, response.statusCode(), () -> "status of " + response.asString());
        assertEquals(HTML, response.contentType());
        assertHeaders(response, csp);
        Document document = Jsoup.parse(response.asString());
        assertEquals("en", document.selectFirst("html").attr("lang"));
        assertEquals("width=device-width, initial-scale=1", document.selectFirst("meta[name=viewport]").attr("content"));
        assertEquals("#main", document.selectFirst("a.skip-link").attr("href"));
        assertEquals(1, document.select("main#main").size());
        assertEquals(1, document.select("h1").size(), "one h1");
        assertTrue(document.select("script").stream().allMatch(script -> script.attr("src").equals("/assets/web/app.js")
                && script.data().isEmpty()), "no inline script");
        assertTrue(document.select("[style]").isEmpty(), "no inline style");
        assertTrue(document.text().indexOf("Exception") < 0 && !response.asString().contains("\tat "), "no stack trace");
        return document;
    }

    public static void assertHeaders(Response response, String csp) {
        assertEquals(csp, response.header("Content-Security-Policy"));
        assertEquals("no-store", response.header("Cache-Control"));
        assertEquals("no-referrer", response.header("Referrer-Policy"));
        assertEquals("nosniff", response.header("X-Content-Type-Options"));
    }

    /**
     * Every address a page gives the browser (links, form actions) carries in its query only {@code tz},
     * {@code key} and {@code return}; every form that sends anything but the zone posts it.
     */
    public static void assertNoPatientDataInAddresses(Document document) {
        for (Element element : document.select("a[href], form[action]")) {
            String address = element.hasAttr("href") ? element.attr("href") : element.attr("action");
            String query = URI.create(address).getRawQuery();
            if (query != null) {
                Arrays.stream(query.split("&")).map(pair -> pair.split("=", 2)[0])
                        .forEach(name -> assertTrue(ADDRESS_PARAMETERS.contains(name), () -> "query parameter " + name + " in " + address));
            }
        }
        for (Element form : document.select("form")) {
            boolean onlyTheZone = form.select("input[name], select[name], textarea[name]").stream()
                    .allMatch(field -> field.attr("name").equals("tz"));
            assertTrue(form.attr("method").equals("post") || onlyTheZone, () -> "a GET form sends more than the zone: " + form);
        }
    }

    public static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
