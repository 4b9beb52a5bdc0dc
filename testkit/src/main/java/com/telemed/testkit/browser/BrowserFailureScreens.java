package com.telemed.testkit.browser;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Keeps what the browsers showed when a test failed: a full-page screenshot of every browser this
 * JVM has open ({@link Browser}), as {@code target/screenshots/failed/<class>-<method>.png} (a nested class as {@code Outer.Nested}) (the
 * second browser's {@code -2.png}, and so on). It acts as the failure is thrown, before
 * {@code @AfterEach} and {@code @AfterAll} methods close anything, for a failure in the test method
 * and in {@code @BeforeEach} or {@code @AfterEach}; the failure itself is passed on unchanged (a
 * screenshot that cannot be taken is added to it as suppressed).
 *
 * <p>Use: {@code @ExtendWith(BrowserFailureScreens.class)} on a page test class (a
 * {@code @QuarkusTest} too: the browsers its application's class loader opened are seen).
 */
public final class BrowserFailureScreens implements TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler {

    static final Path FOLDER = Screenshots.FOLDER.resolve("failed");

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        keep(context, failure);
        throw failure;
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        keep(context, failure);
        throw failure;
    }

    @Override
    public void handleAfterEachMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        keep(context, failure);
        throw failure;
    }

    /** Saves a screenshot of every open browser for the failing test; returns the files written. */
    static List<Path> keep(ExtensionContext context, Throwable failure) {
        Class<?> testClass = context.getRequiredTestClass();
        // BrowserHarnessTest.FailingPage for a nested class: the binary name less its package.
        String className = testClass.getName().substring(testClass.getPackageName().isEmpty() ? 0
                : testClass.getPackageName().length() + 1).replace('$', '.');
        String name = className + "-" + context.getTestMethod().map(method -> method.getName()).orElse("class");
        List<Function<Path, Path>> pages = OpenPages.all();
        List<Path> written = new ArrayList<>();
        for (int i = 0; i < pages.size(); i++) {
            Path file = FOLDER.resolve(name + (i == 0 ? "" : "-" + (i + 1)) + ".png");
            try {
                written.add(pages.get(i).apply(file));
            } catch (RuntimeException e) {
                failure.addSuppressed(new IllegalStateException("no failure screenshot " + file + ": " + e.getMessage(), e));
            }
        }
        return written;
    }
}
