package com.telemed.testkit.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The timing report of a build's tests: per module its tests, failures, skips, test classes and
 * seconds (from surefire's and failsafe's {@code TEST-*.xml}), and its boots (from each module's
 * {@code target/test-boots.tsv}, written by {@link BootLog}); then the slowest test classes of the
 * build. e2e's pom runs it after its integration tests, so that {@code ./mvnw verify} ends with it;
 * {@code main} prints it and keeps it in {@code target/test-times.md} of the checkout.
 *
 * <p>A class's seconds are surefire's: from its first test to its last, the Quarkus boot that the
 * first test of a new application configuration waits for included. A module's seconds are the sum
 * of its classes', which leaves out the JVM's own start and the build steps around the tests.
 */
public final class TestTimes {

    /** One test class as its report file describes it. */
    public record ClassTime(String module, String name, int tests, int failed, int skipped, double seconds) {
    }

    /** One module's line. */
    public record ModuleTime(String module, int tests, int failed, int skipped, int classes, double seconds,
                             Map<BootLog.Kind, Integer> boots) {

        int boots(BootLog.Kind kind) {
            return boots.getOrDefault(kind, 0);
        }
    }

    private static final int SLOWEST = 20;
    private static final Pattern MODULE = Pattern.compile("<module>\\s*([^<\\s]+)\\s*</module>");

    private final List<ModuleTime> modules;
    private final List<ClassTime> classes;

    private TestTimes(List<ModuleTime> modules, List<ClassTime> classes) {
        this.modules = modules;
        this.classes = classes;
    }

    public static void main(String[] args) {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        TestTimes times = read(root);
        String report = times.markdown();
        System.out.println();
        System.out.println(report);
        try {
            Path out = root.resolve("target/test-times.md");
            Files.createDirectories(out.getParent());
            Files.writeString(out, report, StandardCharsets.UTF_8);
            System.out.println("(kept in " + root.relativize(out) + ")");
        } catch (IOException e) {
            System.out.println("(not kept: " + e.getMessage() + ")");
        }
    }

    /** The report of the checkout at {@code root}: its modules in the root pom's order. */
    public static TestTimes read(Path root) {
        List<ModuleTime> modules = new ArrayList<>();
        List<ClassTime> classes = new ArrayList<>();
        for (String module : modules(root)) {
            Path target = root.resolve(module).resolve("target");
            List<ClassTime> own = new ArrayList<>();
            for (String reports : List.of("surefire-reports", "failsafe-reports")) {
                own.addAll(classTimes(module, target.resolve(reports)));
            }
            Map<BootLog.Kind, Integer> boots = boots(target.resolve("test-boots.tsv"));
            if (own.isEmpty() && boots.isEmpty()) {
                continue;
            }
            classes.addAll(own);
            modules.add(new ModuleTime(module, own.stream().mapToInt(ClassTime::tests).sum(),
                    own.stream().mapToInt(ClassTime::failed).sum(), own.stream().mapToInt(ClassTime::skipped).sum(),
                    own.size(), own.stream().mapToDouble(ClassTime::seconds).sum(), boots));
        }
        return new TestTimes(modules, classes);
    }

    public List<ModuleTime> modules() {
        return modules;
    }

    public List<ClassTime> slowest(int count) {
        return classes.stream().sorted(Comparator.comparingDouble(ClassTime::seconds).reversed()).limit(count).toList();
    }

    /** The report: the module table, then the slowest classes. */
    public String markdown() {
        StringBuilder out = new StringBuilder();
        out.append("Test times per module (seconds: the sum of its test classes'; boots: Quarkus applications, whole\n")
                .append("platforms and ./stack ups started; service JVMs: replicas and restarts beside a platform; server\n")
                .append("sets: PostgreSQL + Kafka + SMTP started)\n\n");
        out.append("| Module | Tests | Failed | Skipped | Classes | Seconds | Boots | Service JVMs | Server sets |\n");
        out.append("|---|---:|---:|---:|---:|---:|---|---:|---:|\n");
        int tests = 0;
        int failed = 0;
        int skipped = 0;
        int classCount = 0;
        double seconds = 0;
        Map<BootLog.Kind, Integer> allBoots = new EnumMap<>(BootLog.Kind.class);
        for (ModuleTime module : modules) {
            out.append("| ").append(module.module()).append(" | ").append(module.tests()).append(" | ").append(module.failed())
                    .append(" | ").append(module.skipped()).append(" | ").append(module.classes()).append(" | ")
                    .append(seconds(module.seconds())).append(" | ").append(boots(module.boots())).append(" | ")
                    .append(module.boots(BootLog.Kind.SERVICE)).append(" | ").append(module.boots(BootLog.Kind.SERVERS))
                    .append(" |\n");
            tests += module.tests();
            failed += module.failed();
            skipped += module.skipped();
            classCount += module.classes();
            seconds += module.seconds();
            module.boots().forEach((kind, count) -> allBoots.merge(kind, count, Integer::sum));
        }
        out.append("| **all** | **").append(tests).append("** | ").append(failed).append(" | ").append(skipped).append(" | ")
                .append(classCount).append(" | **").append(seconds(seconds)).append("** | ").append(boots(allBoots))
                .append(" | ").append(allBoots.getOrDefault(BootLog.Kind.SERVICE, 0)).append(" | ")
                .append(allBoots.getOrDefault(BootLog.Kind.SERVERS, 0)).append(" |\n\n");
        out.append("The ").append(SLOWEST).append(" slowest test classes\n\n");
        out.append("| # | Class | Module | Tests | Seconds |\n|---:|---|---|---:|---:|\n");
        int rank = 0;
        for (ClassTime slow : slowest(SLOWEST)) {
            out.append("| ").append(++rank).append(" | ").append(simpleName(slow.name())).append(" | ").append(slow.module())
                    .append(" | ").append(slow.tests()).append(" | ").append(seconds(slow.seconds())).append(" |\n");
        }
        return out.toString();
    }

    private static String boots(Map<BootLog.Kind, Integer> boots) {
        List<String> parts = new ArrayList<>();
        for (BootLog.Kind kind : List.of(BootLog.Kind.QUARKUS, BootLog.Kind.PLATFORM, BootLog.Kind.STACK)) {
            int count = boots.getOrDefault(kind, 0);
            if (count > 0) {
                parts.add(kind.label() + " " + count);
            }
        }
        return parts.isEmpty() ? "0" : String.join(", ", parts);
    }

    private static String seconds(double seconds) {
        return String.format(Locale.ROOT, "%.1f", seconds);
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    static List<String> modules(Path root) {
        try {
            String pom = Files.readString(root.resolve("pom.xml"));
            List<String> modules = new ArrayList<>();
            Matcher matcher = MODULE.matcher(pom);
            while (matcher.find()) {
                modules.add(matcher.group(1));
            }
            return modules;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the root pom of " + root, e);
        }
    }

    /** Each {@code TEST-*.xml}'s root element: its class, counts and time. */
    static List<ClassTime> classTimes(String module, Path reports) {
        if (!Files.isDirectory(reports)) {
            return List.of();
        }
        List<ClassTime> times = new ArrayList<>();
        try (Stream<Path> files = Files.list(reports)) {
            for (Path file : files.filter(f -> f.getFileName().toString().matches("TEST-.*\\.xml")).sorted().toList()) {
                ClassTime time = classTime(module, file);
                if (time != null) {
                    times.add(time);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return times;
    }

    private static ClassTime classTime(String module, Path file) {
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        try (InputStream in = Files.newInputStream(file)) {
            XMLStreamReader xml = factory.createXMLStreamReader(in);
            try {
                while (xml.hasNext()) {
                    if (xml.next() == XMLStreamConstants.START_ELEMENT && xml.getLocalName().equals("testsuite")) {
                        int errors = integer(xml.getAttributeValue(null, "errors"));
                        int failures = integer(xml.getAttributeValue(null, "failures"));
                        return new ClassTime(module, xml.getAttributeValue(null, "name"),
                                integer(xml.getAttributeValue(null, "tests")), errors + failures,
                                integer(xml.getAttributeValue(null, "skipped")),
                                number(xml.getAttributeValue(null, "time")));
                    }
                }
                return null;
            } finally {
                xml.close();
            }
        } catch (IOException | XMLStreamException e) {
            // A report cut short (a JVM killed mid-write) is left out, not a reason to lose the rest.
            return null;
        }
    }

    static Map<BootLog.Kind, Integer> boots(Path tsv) {
        Map<BootLog.Kind, Integer> boots = new EnumMap<>(BootLog.Kind.class);
        if (!Files.isRegularFile(tsv)) {
            return boots;
        }
        try {
            for (String line : Files.readAllLines(tsv, StandardCharsets.UTF_8)) {
                String[] fields = line.split("\t");
                String kind = fields.length > 1 ? fields[1].strip() : "";
                for (BootLog.Kind each : BootLog.Kind.values()) {
                    if (each.label().equals(kind)) {
                        boots.merge(each, 1, Integer::sum);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return boots;
    }

    private static int integer(String value) {
        return value == null || value.isBlank() ? 0 : Integer.parseInt(value.strip());
    }

    private static double number(String value) {
        return value == null || value.isBlank() ? 0 : Double.parseDouble(value.strip().replace(",", ""));
    }

    /** For tests: the lines of the module table, keyed by module. */
    Map<String, ModuleTime> byModule() {
        Map<String, ModuleTime> byModule = new LinkedHashMap<>();
        modules.forEach(module -> byModule.put(module.module(), module));
        return byModule;
    }
}
