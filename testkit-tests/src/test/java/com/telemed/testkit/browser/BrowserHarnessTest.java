package com.telemed.testkit.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.openqa.selenium.By;

/**
 * The page-test harness on small pages served under the web service's strict policy: one browser
 * that runs script and one that runs none, shared by the class.
 */
class BrowserHarnessTest {

    private static final String HEAD = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";

    private static PageServer pages;
    private static Browser browser;
    private static Browser withoutScript;

    @BeforeAll
    static void start() {
        pages = new PageServer(Map.ofEntries(
                Map.entry("/style.css", PageServer.text("body { margin: 0; font-family: sans-serif; color: #1a1a1a; background: #fff; }\n"
                        + "h1 { margin: 0; }\n.tall { height: 3000px; }\n.wide { width: 600px; height: 10px; }\n")),
                Map.entry("/pixel.png", pixel()),
                Map.entry("/clean", PageServer.text(HEAD + "<title>Book an appointment</title><link rel=\"stylesheet\" href=\"/style.css\">"
                        + "</head><body><main><h1>Book an appointment</h1><form method=\"post\" action=\"/clean\">"
                        + "<label for=\"slot\">Time</label><select id=\"slot\" name=\"startTime\"><option value=\"1\">Monday 09:00</option>"
                        + "</select><button type=\"submit\">Book</button></form><img src=\"/pixel.png\" alt=\"Clinic logo\"></main>"
                        + "</body></html>")),
                Map.entry("/violations", PageServer.text(HEAD + "<title>Survey</title><link rel=\"stylesheet\" href=\"/style.css\">"
                        + "</head><body><main><h1>Survey</h1><img src=\"/pixel.png\"><form method=\"post\" action=\"/violations\">"
                        + "<input type=\"text\" name=\"answer\"><button type=\"submit\">Send</button></form></main></body></html>")),
                Map.entry("/tall", PageServer.text(HEAD + "<title>Tall</title><link rel=\"stylesheet\" href=\"/style.css\"></head>"
                        + "<body><main class=\"tall\"><h1>Tall</h1></main></body></html>")),
                Map.entry("/no-viewport", PageServer.text("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                        + "<title>No viewport</title></head><body><main><h1>No viewport</h1></main></body></html>")),
                Map.entry("/wide", PageServer.text(HEAD + "<title>Wide</title><link rel=\"stylesheet\" href=\"/style.css\"></head>"
                        + "<body><main><h1>Wide</h1><div class=\"wide\"></div></main></body></html>")),
                Map.entry("/script", PageServer.text(HEAD + "<title>Static</title><script src=\"/script.js\"></script></head>"
                        + "<body><main><h1>Script</h1><p id=\"state\">static</p></main></body></html>")),
                Map.entry("/script.js", PageServer.text("document.addEventListener('DOMContentLoaded', () => {\n"
                        + "  document.getElementById('state').textContent = 'scripted';\n  document.title = 'Scripted';\n});\n")),
                Map.entry("/noscript", PageServer.text(HEAD + "<title>Without script</title><link rel=\"stylesheet\" href=\"/style.css\">"
                        + "<script src=\"/script.js\"></script></head><body><main><h1>Without script</h1><p id=\"state\">static</p>"
                        + "<noscript><img src=\"/pixel.png\"></noscript></main></body></html>"))));
        browser = Browser.open();
        withoutScript = Browser.withoutJavaScript();
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable each : new AutoCloseable[] {browser, withoutScript, pages}) {
            try {
                if (each != null) {
                    each.close();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void aCleanPagePassesTheAccessibilityCheck() throws IOException {
        browser.get(pages.url("/clean"));

        Axe.Results results = Axe.check(browser.driver(), "harness/clean");

        assertEquals(List.of(), results.violations());
        assertEquals(pages.url("/clean"), results.url());
        Path file = Path.of("target/axe/harness/clean.json").toAbsolutePath();
        assertEquals(file, results.file());
        assertTrue(Files.readString(file).contains("\"testEngine\" : {\n    \"name\" : \"axe-core\",\n    \"version\" : \"4.14.1\""),
                "the results are axe's JSON");
    }

    @Test
    void aBrowserThatCheckedOnePageHasAxeInPlaceInTheNextDocument() {
        browser.get(pages.url("/clean"));
        Axe.check(browser.driver(), "harness/clean-first");

        browser.get(pages.url("/violations"));

        assertEquals(true, browser.driver().executeScript("return typeof window.axe === 'object' && window.axe.version"
                + " === '4.14.1'"), "evaluated by the browser in the new document, before any check sent it");
        AssertionError failure = assertThrows(AssertionError.class, () -> Axe.check(browser.driver(), "harness/violations-preloaded"));
        assertTrue(failure.getMessage().endsWith(":\n  - image-alt (critical): Images must have alternative text at img\n"
                + "  - label (critical): Form elements must have labels at input"), failure.getMessage());
    }

    @Test
    void aPageWithSeriousViolationsFailsNamingEachRuleAndElement() {
        browser.get(pages.url("/violations"));

        AssertionError failure = assertThrows(AssertionError.class, () -> Axe.check(browser.driver(), "harness/violations"));

        assertEquals("axe-core 4.14.1 found 2 serious or critical violation(s) on harness/violations (" + pages.url("/violations")
                + "; all results in " + Path.of("target/axe/harness/violations.json").toAbsolutePath() + "):\n"
                + "  - image-alt (critical): Images must have alternative text at img\n"
                + "  - label (critical): Form elements must have labels at input", failure.getMessage());
    }

    @Test
    void screenshotsAreTakenAtBothWidthsAndTheWholeHeight() throws IOException {
        browser.get(pages.url("/tall"));

        List<Path> files = Screenshots.both(browser.driver(), "harness/tall");

        assertEquals(List.of(Path.of("target/screenshots/harness/tall-375.png").toAbsolutePath(),
                Path.of("target/screenshots/harness/tall-1280.png").toAbsolutePath()), files);
        assertEquals(List.of(375, 3000), size(files.get(0)));
        assertEquals(List.of(1280, 3000), size(files.get(1)));
        assertEquals(List.of(1280L, 1265L), browser.driver().executeScript(
                "return [window.innerWidth, document.documentElement.clientWidth]"),
                "the window's own width again afterwards, less a desktop's scrollbar");
    }

    @Test
    void aPageWiderThanAPhoneIsCaught() {
        browser.get(pages.url("/clean"));
        Screenshots.assertNoHorizontalScroll(browser.driver());

        browser.get(pages.url("/wide"));
        AssertionError failure = assertThrows(AssertionError.class, () -> Screenshots.assertNoHorizontalScroll(browser.driver()));

        assertEquals("the page scrolls sideways at 375 px: document.documentElement.scrollWidth 600 > clientWidth 375 ("
                + pages.url("/wide") + "); past the right edge: div.wide (right edge 600 px)", failure.getMessage());
    }

    @Test
    void aPageWithoutAViewportMetaIsCaught() {
        browser.get(pages.url("/no-viewport"));

        AssertionError failure = assertThrows(AssertionError.class, () -> Screenshots.assertNoHorizontalScroll(browser.driver()));

        assertEquals("the page is laid out 980 px wide on a 375 px phone (" + pages.url("/no-viewport") + "): it needs "
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">", failure.getMessage());
    }

    @Test
    void aBrowserWithoutJavaScriptRunsNoScriptOfThePage() {
        browser.get(pages.url("/script"));
        assertEquals("scripted", browser.driver().findElement(By.id("state")).getText());
        assertEquals("Scripted", browser.driver().getTitle());

        withoutScript.get(pages.url("/script"));

        assertEquals("static", withoutScript.driver().findElement(By.id("state")).getText());
        assertEquals("Static", withoutScript.driver().getTitle());
    }

    @Test
    void aPageWithoutJavaScriptIsCheckedAsItShowsWithoutScript() {
        browser.get(pages.url("/noscript"));
        assertEquals(List.of(), Axe.check(browser.driver(), "harness/noscript-with-script").violations());

        withoutScript.get(pages.url("/noscript"));
        AssertionError failure = assertThrows(AssertionError.class,
                () -> Axe.check(withoutScript.driver(), "harness/noscript-without-script"));

        assertTrue(failure.getMessage().endsWith(":\n  - image-alt (critical): Images must have alternative text at img"),
                failure.getMessage());
        assertEquals("static", withoutScript.driver().findElement(By.id("state")).getText(), "the page itself is untouched");
    }

    @Test
    void aFailingTestKeepsAScreenshotOfEveryOpenBrowser() throws IOException {
        browser.get(pages.url("/clean"));
        withoutScript.get(pages.url("/tall"));
        Path first = BrowserFailureScreens.FOLDER.resolve("BrowserHarnessTest.FailingPage-fails.png");
        Path second = BrowserFailureScreens.FOLDER.resolve("BrowserHarnessTest.FailingPage-fails-2.png");
        Files.deleteIfExists(first);
        Files.deleteIfExists(second);

        Events events = EngineTestKit.engine("junit-jupiter").configurationParameter(FailingPage.RUN, "true")
                .selectors(selectClass(FailingPage.class)).execute().testEvents();

        events.assertStatistics(stats -> stats.started(1).failed(1));
        Throwable failure = events.failed().stream().findFirst().orElseThrow().getRequiredPayload(TestExecutionResult.class)
                .getThrowable().orElseThrow();
        assertEquals("the page was wrong on purpose", failure.getMessage(), "the failure is passed on unchanged");
        assertEquals(0, failure.getSuppressed().length, "every screenshot was taken");

        assertEquals(browser.driver().executeScript("return [window.innerWidth, window.innerHeight]"),
                size(first).stream().map(Long::valueOf).toList(), "the first browser's page, as it stood: its viewport");
        assertEquals(List.of(1265, 3000), size(second), "the second browser's whole page, less the scrollbar");
    }

    /** Run only by the test above, through the Jupiter engine; fails on purpose. */
    @EnabledIf("launchedByTheTest")
    @ExtendWith(BrowserFailureScreens.class)
    static class FailingPage {

        static final String RUN = "telemed.browser.failing-page";

        static boolean launchedByTheTest(ExtensionContext context) {
            return context.getConfigurationParameter(RUN).isPresent();
        }

        @Test
        void fails() {
            fail("the page was wrong on purpose");
        }
    }

    private static List<Integer> size(Path png) throws IOException {
        BufferedImage image = ImageIO.read(png.toFile());
        return List.of(image.getWidth(), image.getHeight());
    }

    private static byte[] pixel() {
        BufferedImage image = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
        image.setRGB(0, 0, 0x336699);
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", png);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return png.toByteArray();
    }
}
