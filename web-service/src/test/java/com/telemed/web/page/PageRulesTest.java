package com.telemed.web.page;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.telemed.web.PageCalls.browser;
import static com.telemed.web.PageCalls.form;
import static com.telemed.web.PageCalls.page;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.web.Neighbours;
import com.telemed.web.PageCalls;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The rules every answer of the service keeps, whatever the path: headers, HTML errors, the assets. */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class PageRulesTest {

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    @Test
    void theStylesheetAndTheScriptAreServedWithTheSameHeaders() {
        Response css = browser().get("/assets/web/style.css");
        assertEquals(200, css.statusCode());
        assertTrue(css.contentType().startsWith("text/css"), css.contentType());
        PageCalls.assertHeaders(css, PageCalls.CSP);
        assertTrue(css.asString().contains(":focus-visible"));
        assertTrue(!css.asString().contains("url(") && !css.asString().contains("@import"), "no third-party or any other asset");

        Response js = browser().get("/assets/web/app.js");
        assertEquals(200, js.statusCode());
        assertTrue(js.contentType().startsWith("text/javascript") || js.contentType().startsWith("application/javascript"), js.contentType());
        PageCalls.assertHeaders(js, PageCalls.CSP);
        assertTrue(js.asString().contains("Intl.DateTimeFormat().resolvedOptions().timeZone"));
        assertTrue(js.asString().contains("form[data-detect-zone]") && js.asString().contains("'.error-summary'"));
        // Its one request: the console's live table, from this service's own address in the page (data-live-src).
        assertEquals(1, js.asString().split("fetch\\(", -1).length - 1);
        assertTrue(js.asString().contains("window.fetch(current.getAttribute('data-live-src'), {\n        credentials: 'same-origin'"));
        assertTrue(!js.asString().contains("XMLHttpRequest") && !js.asString().contains("localStorage") && !js.asString().contains("innerHTML"));
    }

    @Test
    void anUnknownPathIsThe404Page() {
        for (String path : List.of("/no/such/page", "/", "/book", "/assets/web/nothing.css", "/surveys/t/a/b", "/q/health", "/q/metrics")) {
            Document page = page(browser().get(path), 404);
            assertEquals("Page not found", page.selectFirst("h1").text(), path);
            assertEquals("If you typed the address, check it is correct. If you pasted it, check you copied the whole address.",
                    page.selectFirst("h1 + p").text());
        }
    }

    @Test
    void aMethodOrABodyThePageDoesNotTakeIsAnHtmlError() {
        assertEquals("This page cannot do that", page(browser().delete("/book/tok-1"), 405).selectFirst("h1").text());
        page(browser().put("/surveys/s1"), 405);
        page(browser().contentType("application/json").body("{\"startTime\":\"x\"}").post("/book/tok-1"), 415);
        Neighbours.requests().verify(0, getRequestedFor(urlPathMatching(".*")));
    }

    @Test
    void aParameterPostgresqlCouldNotStoreIsThe400PageNotJson() {
        Document page = page(browser().get("/book/tok-1?tz=Europe%00Berlin"), 400);
        assertEquals("There is a problem with what was sent", page.selectFirst("h1").text());
        page(browser().get("/surveys/s%00x?key=pk_x"), 400);
        Neighbours.requests().verify(0, getRequestedFor(urlPathMatching(".*")));
    }

    @Test
    void anUnexpectedAnswerIsThe503PageWithoutAnythingInternal() {
        Neighbours.requests().stubFor(get(urlPathMatching("/ops/v1/bookings/.*")).willReturn(
                com.github.tomakehurst.wiremock.client.WireMock.okJson("{\"booking\": [1, 2]")));
        Document page = page(browser().get("/book/tok-1?tz=UTC"), 503);
        assertEquals("Sorry, the service is unavailable", page.selectFirst("h1").text());
    }

    @Test
    void aCallWithoutTheGatewaysProofIsRefusedWithTheSameHeaders() {
        // Only a caller that went around the gateway sees this: platform-commons' refusal, before any page.
        Response refused = given().noFilters().redirects().follow(false).get("/book/tok-1");
        assertEquals(401, refused.statusCode());
        assertEquals("{\"error\":\"Unauthorized\"}", refused.asString());
        PageCalls.assertHeaders(refused, PageCalls.CSP);
        Response refusedPost = given().noFilters().contentType("application/x-www-form-urlencoded").body("tz=UTC").post("/book/tok-1/cancel");
        assertEquals(401, refusedPost.statusCode());
        Neighbours.requests().verify(0, getRequestedFor(urlPathMatching(".*")));
    }

    @Test
    void aRedirectCarriesTheHeadersToo() {
        Neighbours.requests().stubFor(com.github.tomakehurst.wiremock.client.WireMock.post(urlPathMatching("/ops/v1/bookings/tok-1/appointment/cancel"))
                .willReturn(com.github.tomakehurst.wiremock.client.WireMock.okJson("{\"appointment\":null}")));
        Response moved = form().formParam("tz", "Asia/Kolkata").post("/book/tok-1/cancel");
        assertEquals(303, moved.statusCode());
        assertEquals("/book/tok-1?tz=Asia%2FKolkata", moved.header("Location"));
        PageCalls.assertHeaders(moved, PageCalls.CSP);
    }
}
