package com.telemed.testkit.browser;

import com.telemed.testkit.infra.FileTrees;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A headless Chromium for page tests: Debian's {@code /usr/bin/chromium} driven through Debian's
 * {@code /usr/bin/chromedriver} by Selenium 4 (both named, so Selenium Manager never looks for or
 * downloads anything), with a fresh profile folder under {@code target/browser-profiles} that
 * {@link #close()} deletes. Missing packages are installed first when possible
 * ({@link BrowserPackages}).
 *
 * <p>A start, one page and quit cost about 2 CPU-seconds (docs/testing.md, "Page tests"): share one
 * browser per test class ({@code @BeforeAll}/{@code @AfterAll}). Every browser this JVM has open is
 * known to {@link BrowserFailureScreens} (through {@link OpenPages}, across a Quarkus test's class
 * loaders), which keeps a screenshot of each when a test fails.
 */
public final class Browser implements AutoCloseable {

    /** Chromium's flags, exactly these, plus the profile folder and the window size. */
    public static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync");
    public static final int WIDTH = 1280;
    public static final int HEIGHT = 900;
    /** Chrome's content setting that keeps every page's script from running (2 = block). */
    static final String JAVASCRIPT_SETTING = "profile.managed_default_content_settings.javascript";

    private static final Path PROFILES = Path.of("target", "browser-profiles");
    private static final Set<Browser> OPEN = ConcurrentHashMap.newKeySet();

    static {
        // A test JVM that ends without closing its browsers does not leave Chromium running.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> List.copyOf(OPEN).forEach(Browser::close),
                "browser-close"));
    }

    private final ChromeDriver driver;
    private final Path profile;
    private final boolean javaScript;
    private final long registration;

    private Browser(ChromeDriver driver, Path profile, boolean javaScript) {
        this.driver = driver;
        this.profile = profile;
        this.javaScript = javaScript;
        this.registration = OpenPages.register(file -> Screenshots.current(driver, file));
    }

    /** A browser whose pages run their script. */
    public static Browser open() {
        return start(true);
    }

    /** A browser whose pages run no script at all, as a patient with script turned off sees them. */
    public static Browser withoutJavaScript() {
        return start(false);
    }

    private static Browser start(boolean javaScript) {
        BrowserPackages.ensureInstalled();
        Path profile;
        try {
            // A new folder of a name no other browser (of any class loader or JVM) has.
            profile = Files.createTempDirectory(Files.createDirectories(PROFILES.toAbsolutePath()),
                    "profile-" + ProcessHandle.current().pid() + "-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a profile folder under " + PROFILES.toAbsolutePath(), e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BrowserPackages.CHROMIUM.toFile());
        options.addArguments(FLAGS);
        options.addArguments("--user-data-dir=" + profile, "--window-size=" + WIDTH + "," + HEIGHT);
        if (!javaScript) {
            options.setExperimentalOption("prefs", Map.of(JAVASCRIPT_SETTING, 2));
        }
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(BrowserPackages.CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .withLogOutput(OutputStream.nullOutputStream())
                .build();
        ChromeDriver driver;
        try {
            driver = new ChromeDriver(service, options);
        } catch (RuntimeException e) {
            service.stop();
            deleteQuietly(profile);
            throw e;
        }
        Browser browser = new Browser(driver, profile, javaScript);
        OPEN.add(browser);
        return browser;
    }

    public ChromeDriver driver() {
        return driver;
    }

    /** Opens the address in this browser's window. */
    public Browser get(String url) {
        driver.get(url);
        return this;
    }

    public boolean runsJavaScript() {
        return javaScript;
    }

    /** The open browser this driver belongs to, if it is one of this class loader's. */
    static Optional<Browser> of(WebDriver driver) {
        return OPEN.stream().filter(browser -> browser.driver == driver).findFirst();
    }

    /** Quits Chromium and its driver and deletes the profile folder. */
    @Override
    public void close() {
        if (!OPEN.remove(this)) {
            return;
        }
        OpenPages.unregister(registration);
        try {
            driver.quit();
        } finally {
            deleteQuietly(profile);
        }
    }

    private static void deleteQuietly(Path profile) {
        // Chromium's last helper processes may still write for a moment after quit returns.
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                FileTrees.delete(profile);
                return;
            } catch (IOException e) {
                // written to while walked: once more
            }
        }
    }
}
