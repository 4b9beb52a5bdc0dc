package com.telemed.testkit.browser;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Every open browser of the JVM, as a way to save its page's screenshot: what
 * {@link BrowserFailureScreens} works through. A Quarkus test loads this kit in its application's
 * class loader while JUnit loads the test's extensions from the system class loader, and statics
 * belong to a loader; so the list lives in the system class loader's copy of this class, and a copy
 * in any other loader registers there by reflection, passing only the JDK's types (as
 * {@code infra.SystemLoaded} does for the servers).
 */
final class OpenPages {

    private static final AtomicLong SEQUENCE = new AtomicLong();
    /** In the system class loader's copy: every loader's browsers, in the order they opened. */
    private static final Map<Long, Function<Path, Path>> PAGES = new ConcurrentSkipListMap<>();

    private OpenPages() {
    }

    /** Adds a browser (a function that writes its page to the file given and returns the file); returns its key. */
    static long register(Function<Path, Path> screenshot) {
        Class<?> canonical = canonical();
        if (canonical != null) {
            return (Long) call(canonical, "register", screenshot);
        }
        long key = SEQUENCE.incrementAndGet();
        PAGES.put(key, screenshot);
        return key;
    }

    static void unregister(long key) {
        Class<?> canonical = canonical();
        if (canonical != null) {
            call(canonical, "unregister", key);
            return;
        }
        PAGES.remove(key);
    }

    /** The open browsers of every class loader, oldest first. */
    @SuppressWarnings("unchecked")
    static List<Function<Path, Path>> all() {
        Class<?> canonical = canonical();
        if (canonical != null) {
            return (List<Function<Path, Path>>) call(canonical, "all");
        }
        return List.copyOf(PAGES.values());
    }

    /** The system class loader's copy of this class, or {@code null} when this is it (or it has none). */
    private static Class<?> canonical() {
        ClassLoader system = ClassLoader.getSystemClassLoader();
        if (OpenPages.class.getClassLoader() == system) {
            return null;
        }
        try {
            Class<?> canonical = Class.forName(OpenPages.class.getName(), true, system);
            return canonical == OpenPages.class ? null : canonical;
        } catch (ClassNotFoundException notThere) {
            return null;
        }
    }

    private static Object call(Class<?> canonical, String name, Object... arguments) {
        for (Method method : canonical.getDeclaredMethods()) {
            if (method.getName().equals(name) && method.getParameterCount() == arguments.length) {
                try {
                    method.setAccessible(true);
                    return method.invoke(null, arguments);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                } catch (InvocationTargetException e) {
                    throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
                }
            }
        }
        throw new IllegalStateException(canonical + " has no " + name);
    }
}
