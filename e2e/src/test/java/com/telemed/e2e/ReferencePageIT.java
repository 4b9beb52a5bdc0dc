package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.testkit.browser.Axe;
import com.telemed.testkit.browser.Browser;
import com.telemed.testkit.browser.BrowserFailureScreens;
import com.telemed.testkit.browser.Forms;
import com.telemed.testkit.browser.Screenshots;
import com.telemed.testkit.e2e.RunningPlatform;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.interactions.Actions;

/**
 * The API reference page ({@code GET /docs}, issue #42) as a partner first sees it, in Debian's
 * Chromium, headless, through the shared platform's gateway: the partner document this platform
 * serves rendered on the server, with no warning box, no message in the browser's console (no
 * script, so nothing for the page's Content-Security-Policy to block; its stylesheet loads under
 * it), no serious or critical axe-core finding as first shown nor with every entry open, and no
 * sideways scrolling at 375 px (screenshots at 375 and 1280 px under {@code target/screenshots},
 * axe's results under {@code target/axe}). An operation opens from the keyboard alone.
 */
@ExtendWith({RunningPlatform.class, BrowserFailureScreens.class})
class ReferencePageIT {

    /** What Swagger UI showed above the API for the document's JSON Schema dialect. */
    private static final String DIALECT_WARNING = "jsonSchemaDialect";

    private static Browser browser;

    private RunningPlatform.Handle platform;

    @BeforeAll
    static void openBrowser() {
        browser = Browser.open();
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @BeforeEach
    void platform(RunningPlatform.Handle handle) {
        platform = handle;
    }

    /** Opens the page; the console's messages of an earlier page are read and dropped first. */
    private WebDriver open(String fragment) {
        WebDriver driver = browser.driver();
        consoleMessages(driver);
        // A page of its own each time: from /docs#a to /docs#b is a move within the same document, which would
        // keep the entries an earlier test opened.
        driver.get("about:blank");
        driver.get(platform.gateway() + "/docs" + fragment);
        return driver;
    }

    /**
     * The browser console's messages since the last read: chromedriver keeps every page's console
     * output, the browser's own reports included (a resource that failed to load, a script or style
     * the Content-Security-Policy refused), in Selenium's {@code browser} log.
     */
    private static List<String> consoleMessages(WebDriver driver) {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(entry -> entry.getLevel().intValue() >= Level.WARNING.intValue())
                .map(LogEntry::toString).toList();
    }

    private static Object script(WebDriver driver, String script, Object... arguments) {
        return ((JavascriptExecutor) driver).executeScript(script, arguments);
    }

    /**
     * Whether the browser shows the element ({@code checkVisibility()}). Selenium's {@code isDisplayed},
     * and even the element's boxes, count what a closed {@code <details>} holds as shown: Chromium lays
     * it out but skips painting it ({@code content-visibility: hidden}).
     */
    private static boolean rendered(WebDriver driver, WebElement element) {
        return Boolean.TRUE.equals(script(driver, "return arguments[0].checkVisibility()", element));
    }

    @Test
    void aPartnersFirstLookShowsTheDocumentWithNoWarningNoConsoleErrorAndNoAccessibilityFinding() throws IOException {
        given().baseUri(platform.gateway().toString()).get("/docs").then().statusCode(200)
                .header("Content-Type", "text/html; charset=utf-8")
                .header("Content-Security-Policy", "default-src 'none'; script-src 'none'; style-src 'self'; img-src 'self';"
                        + " base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
        JsonNode document = new ObjectMapper().readTree(given().baseUri(platform.gateway().toString()).get("/openapi.json")
                .then().statusCode(200).extract().asByteArray());

        WebDriver driver = open("");
        assertEquals("Telemedicine prescription service - partner API - reference", driver.getTitle());
        assertEquals("Telemedicine prescription service - partner API", driver.findElement(By.tagName("h1")).getText());
        // No warning box: nothing on the page speaks of the dialect, nothing is an alert.
        assertEquals(List.of(), driver.findElements(By.xpath("//*[contains(text(), '" + DIALECT_WARNING + "')]")));
        assertFalse(driver.getPageSource().contains(DIALECT_WARNING));
        assertEquals(List.of(), driver.findElements(By.cssSelector("[role=alert], .errors-wrapper, script")));
        // The stylesheet loaded under the policy (the header's colour is its).
        assertEquals("rgb(30, 58, 95)", script(driver,
                "return getComputedStyle(document.querySelector('.site-header')).backgroundColor"));
        // Every operation and webhook of the served document, each a closed entry; every schema shown.
        long operations = 0;
        for (JsonNode paths : List.of(document.path("paths"), document.path("webhooks"))) {
            for (JsonNode path : paths) {
                for (String method : List.of("get", "put", "post", "delete", "patch", "head", "options", "trace")) {
                    operations += path.has(method) ? 1 : 0;
                }
            }
        }
        assertTrue(operations > 70, "operations: " + operations);
        assertEquals(operations, script(driver, "return document.querySelectorAll('details.operation').length"));
        assertEquals(0L, script(driver, "return document.querySelectorAll('details[open]').length"));
        assertEquals(document.path("components").path("schemas").size(),
                ((Number) script(driver, "return document.querySelectorAll('.component[id^=\"schema-\"]').length")).intValue());

        Axe.check(driver, "reference-first-look");
        Screenshots.both(driver, "reference-first-look");
        Screenshots.assertNoHorizontalScroll(driver);
        assertEquals(List.of(), consoleMessages(driver));
    }

    @Test
    void everyEntryOpenIsStillCleanAndFitsAPhone() {
        WebDriver driver = open("");
        script(driver, "document.querySelectorAll('details').forEach(entry => entry.open = true)");
        assertEquals(script(driver, "return document.querySelectorAll('details').length"),
                script(driver, "return document.querySelectorAll('details[open]').length"));
        Axe.check(driver, "reference-every-entry-open");
        Screenshots.assertNoHorizontalScroll(driver);
        Screenshots.at(driver, Screenshots.PHONE, "reference-every-entry-open");
        assertEquals(List.of(), consoleMessages(driver));
    }

    @Test
    void anOperationOpensFromTheKeyboardAlone() {
        WebDriver driver = open("#tag-Requests");
        WebElement create = driver.findElement(By.id("operation-createRequest"));
        WebElement summary = create.findElement(By.tagName("summary"));
        assertEquals("POST /v1/requests Create a prescription or consultation request", summary.getText());
        WebElement body = create.findElement(By.xpath(".//h3[. = 'Request body (required)']"));
        assertFalse(rendered(driver, body));
        assertTrue(rendered(driver, summary));
        // From the section the link named, Tab reaches the entry's summary in the page's order; Enter opens it.
        assertEquals(summary, Forms.tabTo(driver, "#operation-createRequest > summary"));
        new Actions(driver).sendKeys(Keys.ENTER).perform();
        await("the entry open").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> create.getDomAttribute("open") != null);
        assertTrue(rendered(driver, body));
        assertEquals("{\n  \"error\": \"Member not found\"\n}", create.findElements(By.tagName("pre")).stream()
                .map(pre -> pre.getAttribute("textContent")).filter(text -> text.contains("Member not found")).findFirst().orElseThrow());
        Axe.check(driver, "reference-operation-open");
        Screenshots.both(driver, "reference-operation-open");
        assertEquals(List.of(), consoleMessages(driver));
    }
}
