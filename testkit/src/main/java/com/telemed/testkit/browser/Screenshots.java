package com.telemed.testkit.browser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chromium.HasCdp;

/**
 * Screenshots of a page at a phone's width and a desktop's, and the check that a page does not
 * scroll sideways on a phone. The width is set through the DevTools protocol
 * ({@code Emulation.setDeviceMetricsOverride}, one device pixel per CSS pixel) and put back
 * afterwards: below {@value #DESKTOP} px as a phone (the page's viewport meta obeyed, scrollbars
 * over the content as on a phone), at {@value #DESKTOP} px as a desktop. The picture is the whole
 * page ({@code Page.captureScreenshot} beyond the viewport), up to {@value #MAX_HEIGHT} pixels high
 * (Chromium's limit for one picture). Neither needs the page to run script: a browser from
 * {@link Browser#withoutJavaScript()} works as well.
 */
public final class Screenshots {

    public static final int PHONE = 375;
    public static final int DESKTOP = 1280;
    public static final int MAX_HEIGHT = 16384;
    static final Path FOLDER = Path.of("target", "screenshots");

    private Screenshots() {
    }

    /**
     * The page at 375 and 1280 px wide, full height: {@code target/screenshots/<label>-375.png} and
     * {@code <label>-1280.png}, returned in that order.
     */
    public static List<Path> both(WebDriver driver, String label) {
        return List.of(at(driver, PHONE, label), at(driver, DESKTOP, label));
    }

    /** The page at {@code width} CSS pixels, full height, as {@code target/screenshots/<label>-<width>.png}. */
    public static Path at(WebDriver driver, int width, String label) {
        HasCdp cdp = cdp(driver);
        return atWidth(cdp, width, () -> write(FOLDER.resolve(label + "-" + width + ".png"), fullPage(cdp, width)));
    }

    /**
     * Fails unless the page fits a 375 px phone: {@code document.documentElement.scrollWidth <=
     * clientWidth}, naming the elements that reach past the right edge, and the page laid out at the
     * phone's width (a page without {@code <meta name="viewport" content="width=device-width">} is
     * laid out 980 px wide and shrunk).
     */
    public static void assertNoHorizontalScroll(WebDriver driver) {
        assertNoHorizontalScroll(driver, PHONE);
    }

    /** As {@link #assertNoHorizontalScroll(WebDriver)} at another width. */
    @SuppressWarnings("unchecked")
    public static void assertNoHorizontalScroll(WebDriver driver, int width) {
        HasCdp cdp = cdp(driver);
        Map<String, Object> measured = atWidth(cdp, width, () -> (Map<String, Object>) cdp.executeCdpCommand("Runtime.evaluate",
                Map.of("expression", MEASURE, "returnByValue", true)).get("result"));
        Map<String, Object> value = (Map<String, Object>) measured.get("value");
        long scrollWidth = ((Number) value.get("scrollWidth")).longValue();
        long clientWidth = ((Number) value.get("clientWidth")).longValue();
        if (clientWidth > width) {
            throw new AssertionError("the page is laid out " + clientWidth + " px wide on a " + width + " px phone ("
                    + driver.getCurrentUrl() + "): it needs <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
        }
        if (scrollWidth > clientWidth) {
            throw new AssertionError("the page scrolls sideways at " + width + " px: document.documentElement.scrollWidth "
                    + scrollWidth + " > clientWidth " + clientWidth + " (" + driver.getCurrentUrl() + "); past the right edge: "
                    + String.join(", ", (List<String>) value.get("wide")));
        }
    }

    /**
     * The page as it is now, full height, as wide as its content (its viewport less a scrollbar):
     * for {@link BrowserFailureScreens}.
     */
    static Path current(WebDriver driver, Path file) {
        HasCdp cdp = cdp(driver);
        Map<String, Object> metrics = cdp.executeCdpCommand("Page.getLayoutMetrics", Map.of());
        int width = (int) Math.ceil(((Number) size(metrics, "cssContentSize", "width")).doubleValue());
        return write(file, fullPage(cdp, width));
    }

    /** Measured by the DevTools protocol, which runs in a page that runs no script too. */
    private static final String MEASURE = """
            (() => {
                const root = document.documentElement;
                const wide = Array.from(document.querySelectorAll('body *'))
                    .filter(element => element.getBoundingClientRect().right > root.clientWidth)
                    .slice(0, 5)
                    .map(element => element.tagName.toLowerCase() + (element.id ? '#' + element.id : '')
                        + Array.from(element.classList).map(name => '.' + name).join('')
                        + ' (right edge ' + Math.round(element.getBoundingClientRect().right) + ' px)');
                return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide: wide };
            })()""";

    private static <T> T atWidth(HasCdp cdp, int width, java.util.function.Supplier<T> action) {
        cdp.executeCdpCommand("Emulation.setDeviceMetricsOverride", Map.of("width", width, "height", Browser.HEIGHT,
                "deviceScaleFactor", 1, "mobile", width < DESKTOP));
        try {
            return action.get();
        } finally {
            cdp.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
        }
    }

    private static byte[] fullPage(HasCdp cdp, int width) {
        Map<String, Object> metrics = cdp.executeCdpCommand("Page.getLayoutMetrics", Map.of());
        double height = Math.min(MAX_HEIGHT, Math.max(1, ((Number) size(metrics, "cssContentSize", "height")).doubleValue()));
        Map<String, Object> shot = cdp.executeCdpCommand("Page.captureScreenshot", Map.of("format", "png",
                "captureBeyondViewport", true, "clip", Map.of("x", 0, "y", 0, "width", width, "height", Math.ceil(height),
                        "scale", 1)));
        return Base64.getDecoder().decode((String) shot.get("data"));
    }

    @SuppressWarnings("unchecked")
    private static Object size(Map<String, Object> metrics, String box, String dimension) {
        return ((Map<String, Object>) metrics.get(box)).get(dimension);
    }

    private static Path write(Path file, byte[] png) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.write(file, png);
            return file.toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static HasCdp cdp(WebDriver driver) {
        if (driver instanceof HasCdp cdp) {
            return cdp;
        }
        throw new IllegalArgumentException("screenshots need a Chromium driver (Browser.open()), not "
                + driver.getClass().getName());
    }
}
