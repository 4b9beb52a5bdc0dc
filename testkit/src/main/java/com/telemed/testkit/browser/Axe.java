package com.telemed.testkit.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.testkit.infra.FileTrees;
import com.telemed.testkit.infra.PlatformCache;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chromium.HasCdp;

/**
 * The accessibility check of a page: axe-core (Deque's engine, from the npm registry, version
 * {@value #VERSION}) run in the page against WCAG 2.0 and 2.1, levels A and AA.
 *
 * <p>The package is fetched once per machine with {@code npm pack} into the platform cache
 * ({@link PlatformCache}), checked against its pinned integrity, and {@code axe.min.js} read from the
 * tarball; it is injected into the page with {@code executeScript} (the DevTools protocol is not
 * held by the page's Content-Security-Policy), and from then on evaluated by that browser in every
 * new document before the page's scripts, and run with {@code axe.run()}. The results are written
 * to {@code target/axe/<label>.json}; {@link #check} fails listing every serious or critical
 * violation (rule, impact, the selectors of each element at fault).
 *
 * <p>A page opened by {@link Browser#withoutJavaScript()} cannot be checked in place. Scripts
 * injected through the driver (and the DevTools protocol's {@code Runtime.evaluate}) still run there,
 * and so do promise callbacks, but the content setting stops every timer and event handler, and
 * {@code axe.run()} waits for timers between its rules: it never settles (measured: the driver's
 * script timeout, or "Promise was collected"). So {@link #check} checks such a page in a copy: its
 * document as it stands, in a script-running browser at the same address ({@link #run}).
 */
public final class Axe {

    public static final String VERSION = "4.14.1";
    /** npm's integrity of axe-core-4.14.1.tgz (what {@code npm view axe-core@4.14.1 dist.integrity} says). */
    static final String INTEGRITY = "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ==";
    public static final List<String> TAGS = List.of("wcag2a", "wcag2aa", "wcag21a", "wcag21aa");
    /** The impacts that fail a check. */
    public static final Set<String> FAILING = Set.of("serious", "critical");
    static final Path RESULTS = Path.of("target", "axe");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String RUN = """
            const done = arguments[arguments.length - 1];
            axe.run(document, { runOnly: { type: 'tag', values: %s }, resultTypes: ['violations', 'incomplete'] })
                .then(results => done(JSON.stringify(results)),
                      failure => done(JSON.stringify({ axeError: String((failure && failure.stack) || failure) })));
            """;
    /**
     * The document of a page as it stands: form fields' current values and states written into
     * their attributes (on a copy), {@code noscript} elements turned into {@code div}s (a page that
     * runs no script shows their content; a copy in a script-running page would hide it).
     */
    private static final String SNAPSHOT = """
            const copy = document.documentElement.cloneNode(true);
            const fields = document.querySelectorAll('input, textarea, select');
            const copied = copy.querySelectorAll('input, textarea, select');
            fields.forEach((field, i) => {
                const twin = copied[i];
                if (field.tagName === 'TEXTAREA') { twin.textContent = field.value; }
                else if (field.tagName === 'SELECT') {
                    Array.from(field.options).forEach((option, j) => option.selected
                        ? twin.options[j].setAttribute('selected', '') : twin.options[j].removeAttribute('selected'));
                } else if (field.type === 'checkbox' || field.type === 'radio') {
                    field.checked ? twin.setAttribute('checked', '') : twin.removeAttribute('checked');
                } else if (field.type !== 'file') { twin.setAttribute('value', field.value); }
            });
            copy.querySelectorAll('noscript').forEach(element => {
                const shown = document.createElement('div');
                for (const attribute of element.attributes) shown.setAttribute(attribute.name, attribute.value);
                shown.innerHTML = element.innerHTML;
                element.replaceWith(shown);
            });
            copy.querySelectorAll('script').forEach(script => script.remove());
            return copy.outerHTML;
            """;
    /** Puts a snapshot in place of this page's document and waits for its stylesheets. */
    private static final String REPLACE = """
            const done = arguments[arguments.length - 1];
            const copy = new DOMParser().parseFromString(arguments[0], 'text/html');
            copy.querySelectorAll('script').forEach(script => script.remove());
            const root = document.documentElement;
            for (const name of root.getAttributeNames()) root.removeAttribute(name);
            for (const attribute of copy.documentElement.attributes) root.setAttribute(attribute.name, attribute.value);
            root.replaceChildren(...Array.from(copy.documentElement.childNodes).map(node => document.adoptNode(node)));
            const links = Array.from(document.querySelectorAll('link[rel~="stylesheet"]'));
            Promise.all(links.map(link => link.sheet ? null : new Promise(settled => {
                link.addEventListener('load', settled);
                link.addEventListener('error', settled);
            }))).then(() => done(true));
            """;
    private static volatile String source;
    /** The drivers whose browsers evaluate axe in every new document ({@link #preloadInLaterDocuments}). */
    private static final Set<WebDriver> PRELOADED = Collections.newSetFromMap(new WeakHashMap<>());
    /** The script-running browser that checks copies of pages of browsers that run none. */
    private static Browser copies;

    /** One violation of a rule: its id, impact, help text and the selectors of each element at fault. */
    public record Violation(String rule, String impact, String help, List<String> targets) {
        @Override
        public String toString() {
            return rule + " (" + impact + "): " + help + " at " + String.join(", ", targets);
        }
    }

    /** What one run found, and where its JSON was written. */
    public record Results(String label, String url, List<Violation> violations, Path file) {
        /** The violations that fail a check: serious or critical. */
        public List<Violation> failing() {
            return violations.stream().filter(violation -> FAILING.contains(violation.impact())).toList();
        }
    }

    private Axe() {
    }

    /**
     * Runs axe on the page the driver shows, writes {@code target/axe/<label>.json} and fails when it
     * found any serious or critical violation, naming each. A page of a browser that runs no script
     * is checked as {@link #run} says.
     */
    public static Results check(WebDriver driver, String label) {
        return failOnSerious(run(driver, label));
    }

    /**
     * Runs axe and writes the results, without judging them. When the driver is a
     * {@link Browser#withoutJavaScript()} browser's, its page cannot run axe (its timers never fire):
     * the page's document as it stands (form fields' values included, {@code noscript} content
     * shown, script elements left out) is copied into a script-running browser kept for this (one
     * per JVM, opened on first need) at the same address, and checked there.
     */
    public static Results run(WebDriver driver, String label) {
        if (Browser.of(driver).map(browser -> !browser.runsJavaScript()).orElse(false)) {
            return runCopied(driver, label);
        }
        return runInPlace(driver, label);
    }

    private static Results runInPlace(WebDriver driver, String label) {
        JavascriptExecutor page = (JavascriptExecutor) driver;
        if (!Boolean.TRUE.equals(page.executeScript("return typeof window.axe === 'object'"))) {
            page.executeScript(source());
            preloadInLaterDocuments(driver);
        }
        Object answer = page.executeAsyncScript(RUN.formatted(toJson(TAGS)));
        return record(label, String.valueOf(answer));
    }

    /**
     * Has the browser evaluate axe in every document it opens from now on, before the page's own
     * scripts (the DevTools protocol's {@code Page.addScriptToEvaluateOnNewDocument}, once per
     * driver): later checks find it in place instead of sending the script with each. Measured on a
     * quiet machine, a check of a new document 0.6 -> 0.4 s; under load, sending the 650 KB took 2.5 s.
     */
    private static void preloadInLaterDocuments(WebDriver driver) {
        if (driver instanceof HasCdp cdp) {
            synchronized (PRELOADED) {
                if (PRELOADED.add(driver)) {
                    cdp.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", source()));
                }
            }
        }
    }

    private static Results runCopied(WebDriver withoutScript, String label) {
        String url = withoutScript.getCurrentUrl();
        // Synchronous evaluation runs in such a page (only its timers and event handlers do not).
        String html = (String) ((JavascriptExecutor) withoutScript).executeScript(SNAPSHOT);
        synchronized (Axe.class) {
            if (copies == null) {
                copies = Browser.open();
            }
            WebDriver driver = copies.driver();
            driver.get(url);
            ((JavascriptExecutor) driver).executeAsyncScript(REPLACE, html);
            return runInPlace(driver, label);
        }
    }

    private static Results failOnSerious(Results results) {
        List<Violation> failing = results.failing();
        if (!failing.isEmpty()) {
            StringBuilder message = new StringBuilder("axe-core " + VERSION + " found " + failing.size()
                    + " serious or critical violation(s) on " + results.label() + " (" + results.url() + "; all results in "
                    + results.file() + "):");
            failing.forEach(violation -> message.append("\n  - ").append(violation));
            throw new AssertionError(message.toString());
        }
        return results;
    }

    private static Results record(String label, String json) {
        JsonNode results;
        try {
            results = JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException("axe answered what is not JSON: " + abbreviate(json), e);
        }
        if (results.has("axeError")) {
            throw new IllegalStateException("axe.run failed on " + label + ": " + results.get("axeError").asText());
        }
        Path file = RESULTS.resolve(label + ".json");
        try {
            Files.createDirectories(file.getParent());
            JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), results);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        List<Violation> violations = new ArrayList<>();
        for (JsonNode rule : results.path("violations")) {
            // Each rule's impact is its worst node's.
            List<String> targets = new ArrayList<>();
            for (JsonNode node : rule.path("nodes")) {
                targets.add(selector(node.path("target")));
            }
            violations.add(new Violation(rule.path("id").asText(), rule.path("impact").asText(), rule.path("help").asText(),
                    List.copyOf(targets)));
        }
        return new Results(label, results.path("url").asText(), List.copyOf(violations), file.toAbsolutePath());
    }

    /** A target is a list of selectors, one per frame or shadow root on the way to the element. */
    private static String selector(JsonNode target) {
        if (!target.isArray()) {
            return target.asText();
        }
        List<String> parts = new ArrayList<>();
        target.forEach(part -> parts.add(selector(part)));
        return String.join(" >> ", parts);
    }

    /** axe.min.js of the pinned version, fetched into the platform cache the first time. */
    static String source() {
        String known = source;
        if (known == null) {
            synchronized (Axe.class) {
                known = source;
                if (known == null) {
                    known = readScript(tarball(PlatformCache.directory()));
                    source = known;
                }
            }
        }
        return known;
    }

    /** The pinned tarball in {@code cache}, packed there by npm when absent or not the pinned one. */
    static Path tarball(Path cache) {
        Path tarball = cache.resolve("axe-core-" + VERSION + ".tgz");
        if (Files.isRegularFile(tarball) && INTEGRITY.equals(integrity(tarball))) {
            return tarball;
        }
        try {
            Files.createDirectories(cache);
            try (FileChannel channel = FileChannel.open(cache.resolve(".axe-core.lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
                 FileLock ignored = channel.lock()) {
                if (Files.isRegularFile(tarball) && INTEGRITY.equals(integrity(tarball))) {
                    return tarball; // another JVM packed it while this one waited
                }
                Path folder = Files.createDirectories(cache.resolve("axe-core.partial-" + ProcessHandle.current().pid()));
                try {
                    Path packed = npmPack(folder);
                    String found = integrity(packed);
                    if (!INTEGRITY.equals(found)) {
                        throw new IllegalStateException("npm packed axe-core@" + VERSION + " with integrity " + found
                                + ", not the pinned " + INTEGRITY);
                    }
                    Files.move(packed, tarball, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } finally {
                    FileTrees.delete(folder);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep axe-core in " + cache, e);
        }
        return tarball;
    }

    private static Path npmPack(Path folder) throws IOException {
        Path log = folder.resolve("npm.log");
        List<String> command = List.of("npm", "pack", "axe-core@" + VERSION, "--pack-destination", folder.toString(),
                "--silent");
        Process process;
        try {
            process = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("the accessibility check fetches axe-core once with npm, which is missing ("
                    + e.getMessage() + "): install Debian's nodejs/npm, or put axe-core-" + VERSION + ".tgz into " + folder.getParent(), e);
        }
        try {
            if (!process.waitFor(300, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("npm pack axe-core@" + VERSION + " did not finish in 300 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException("interrupted while npm packed axe-core", e);
        }
        Path packed = folder.resolve("axe-core-" + VERSION + ".tgz");
        if (process.exitValue() != 0 || !Files.isRegularFile(packed)) {
            throw new IllegalStateException("npm pack axe-core@" + VERSION + " failed (exit " + process.exitValue() + "):\n"
                    + Files.readString(log, StandardCharsets.UTF_8));
        }
        return packed;
    }

    /** npm's integrity string of a file: {@code sha512-} and the base64 of its SHA-512. */
    static String integrity(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-512");
            byte[] buffer = new byte[65536];
            for (int read; (read = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, read);
            }
            return "sha512-" + Base64.getEncoder().encodeToString(digest.digest());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code package/axe.min.js} of an npm tarball. */
    static String readScript(Path tarball) {
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new GzipCompressorInputStream(
                new BufferedInputStream(Files.newInputStream(tarball))))) {
            for (TarArchiveEntry entry; (entry = tar.getNextEntry()) != null; ) {
                if (entry.getName().equals("package/axe.min.js")) {
                    return new String(tar.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + tarball, e);
        }
        throw new IllegalStateException(tarball + " holds no package/axe.min.js");
    }

    private static String toJson(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }
}
