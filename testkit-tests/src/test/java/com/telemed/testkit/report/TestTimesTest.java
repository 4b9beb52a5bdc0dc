package com.telemed.testkit.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/** Alone: it sets the boot log's system properties, which another class's shared servers would write to. */
@Isolated
class TestTimesTest {

    @TempDir
    Path root;

    @AfterEach
    void forgetTheBootLog() {
        System.clearProperty(BootLog.PROPERTY);
        System.clearProperty(BootLog.BUILD_PROPERTY);
    }

    @Test
    void sumsEachModulesReportsAndBootsInThePomsOrderAndRanksTheSlowestClasses() throws Exception {
        Files.writeString(root.resolve("pom.xml"), """
                <project><modules>
                  <module>zeta</module>
                  <module>alpha</module>
                  <module>empty</module>
                </modules></project>""");
        report("zeta", "surefire-reports", "com.x.SlowTest", 3, 1, 0, 1, "40.25");
        report("zeta", "surefire-reports", "com.x.QuickTest", 10, 0, 0, 0, "0.5");
        report("zeta", "failsafe-reports", "com.x.PackagedIT", 1, 0, 0, 0, "12.0");
        report("alpha", "failsafe-reports", "com.y.WholePlatformIT", 2, 0, 1, 0, "1,200.5");
        Files.createDirectories(root.resolve("empty/target"));
        // A report cut short is left out.
        Files.writeString(root.resolve("zeta/target/surefire-reports/TEST-com.x.Broken.xml"), "<testsuite name=\"com.x.Bro");
        Files.writeString(root.resolve("zeta/target/test-boots.tsv"), """
                b1\tquarkus\tdefault profile\t9.1
                b1\tquarkus\tcom.x.Profile\t1.0
                b1\tservers\tshared by this JVM\t8.0
                """);
        Files.writeString(root.resolve("alpha/target/test-boots.tsv"), """
                b1\tplatform\tshared\t40.0
                b1\tservice\trequests-service replica\t12.0
                b1\tservice\trequests-service replica\t11.0
                b1\tstack\t./stack up\t50.0
                b1\tservers\tshared by this JVM\t8.0
                """);

        TestTimes times = TestTimes.read(root);

        assertEquals(List.of("zeta", "alpha"), times.modules().stream().map(TestTimes.ModuleTime::module).toList());
        TestTimes.ModuleTime zeta = times.byModule().get("zeta");
        assertEquals(14, zeta.tests());
        assertEquals(2, zeta.failed());
        assertEquals(0, zeta.skipped());
        assertEquals(3, zeta.classes());
        assertEquals(52.75, zeta.seconds(), 1e-9);
        assertEquals(Map.of(BootLog.Kind.QUARKUS, 2, BootLog.Kind.SERVERS, 1), zeta.boots());
        assertEquals(List.of("com.y.WholePlatformIT", "com.x.SlowTest", "com.x.PackagedIT", "com.x.QuickTest"),
                times.slowest(20).stream().map(TestTimes.ClassTime::name).toList());

        String report = times.markdown();
        assertTrue(report.contains("| zeta | 14 | 2 | 0 | 3 | 52.8 | quarkus 2 | 0 | 1 |\n"), report);
        assertTrue(report.contains("| alpha | 2 | 0 | 1 | 1 | 1200.5 | platform 1, stack 1 | 2 | 1 |\n"), report);
        assertTrue(report.contains("| **all** | **16** | 2 | 1 | 4 | **1253.3** | quarkus 2, platform 1, stack 1 | 2 | 2 |\n"), report);
        assertTrue(report.contains("| 1 | WholePlatformIT | alpha | 2 | 1200.5 |\n| 2 | SlowTest | zeta | 3 | 40.3 |\n"), report);
    }

    @Test
    void theBootLogHoldsOneBuildAcrossTheModulesTestJvms() throws Exception {
        Path log = root.resolve("target/test-boots.tsv");
        System.setProperty(BootLog.PROPERTY, log.toString());
        System.setProperty(BootLog.BUILD_PROPERTY, "2026-11-28T10:00:00Z");
        BootLog.record(BootLog.Kind.QUARKUS, "default\tprofile", System.nanoTime());
        BootLog.record(BootLog.Kind.SERVERS, "shared", System.nanoTime());
        assertEquals(2, Files.readAllLines(log).size());
        assertTrue(Files.readAllLines(log).get(0).startsWith("2026-11-28T10:00:00Z\tquarkus\tdefault profile\t"));

        // The next build starts the file again.
        System.setProperty(BootLog.BUILD_PROPERTY, "2026-11-28T11:00:00Z");
        BootLog.record(BootLog.Kind.PLATFORM, "shared", System.nanoTime());
        List<String> lines = Files.readAllLines(log);
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("2026-11-28T11:00:00Z\tplatform\tshared\t"), lines.get(0));
        assertEquals(Map.of(BootLog.Kind.PLATFORM, 1), TestTimes.boots(log));
    }

    @Test
    void withoutTheBuildsPropertyNothingIsWritten() {
        BootLog.record(BootLog.Kind.QUARKUS, "default profile", System.nanoTime());
        assertEquals(Map.of(), TestTimes.boots(root.resolve("target/test-boots.tsv")));
        assertTrue(Files.notExists(root.resolve("target")));
    }

    private void report(String module, String folder, String className, int tests, int failures, int skipped, int errors,
                        String time) throws Exception {
        Path dir = Files.createDirectories(root.resolve(module).resolve("target").resolve(folder));
        Files.writeString(dir.resolve("TEST-" + className + ".xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuite xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="3.0.2" name="%s" time="%s" tests="%d" errors="%d" skipped="%d" failures="%d">
                  <properties><property name="java.version" value="17"/></properties>
                  <testcase name="one" classname="%s" time="1.0"><system-out><![CDATA[<testsuite name="not this one">]]></system-out></testcase>
                </testsuite>""".formatted(className, time, tests, errors, skipped, failures, className));
    }
}
