package com.telemed.testkit.browser;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The open browsers are one list per JVM, whichever class loader opened them (a Quarkus test's). */
class OpenPagesTest {

    @Test
    void aBrowserOfAnotherClassLoaderIsSeenFromTheSystemClassLoader() throws Exception {
        URL kit = OpenPages.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader application = new URLClassLoader(new URL[] {kit}, ClassLoader.getPlatformClassLoader())) {
            Class<?> copy = Class.forName(OpenPages.class.getName(), true, application);
            assertNotSame(OpenPages.class, copy, "a copy of its own, as in a Quarkus application's class loader");
            Method register = copy.getDeclaredMethod("register", Function.class);
            Method unregister = copy.getDeclaredMethod("unregister", long.class);
            register.setAccessible(true);
            unregister.setAccessible(true);
            Function<Path, Path> page = file -> file;

            long key = (Long) register.invoke(null, page);
            assertTrue(OpenPages.all().contains(page), "registered in the system class loader's list");

            unregister.invoke(null, key);
            assertFalse(OpenPages.all().contains(page));
        }
    }
}
