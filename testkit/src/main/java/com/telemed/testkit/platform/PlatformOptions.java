package com.telemed.testkit.platform;

import com.telemed.testkit.infra.FreePorts;
import com.telemed.testkit.infra.JavaProcesses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * How to run the services: where the builds and logs are, their ports, the JVM options, the
 * environment every service gets (the operator key, the deployment's environment), the
 * environment only one service gets ({@code serviceEnvironment}, over the shared one: say, a
 * pharmacy endpoint for requests-service alone) and the command each service's {@code java} runs
 * under ({@code launcher}: empty, or say {@code nice -n 19}).
 */
public record PlatformOptions(Path projectRoot, Path logDirectory, Map<PlatformService, Integer> ports,
                              List<String> jvmOptions, Map<String, String> environment, Duration readyTimeout,
                              Map<PlatformService, Map<String, String>> serviceEnvironment, List<String> launcher,
                              ServiceClassArchives classArchives) {

    public PlatformOptions {
        serviceEnvironment = Map.copyOf(serviceEnvironment);
        launcher = List.copyOf(launcher);
    }

    /** Without class-data archives of the launcher's own ({@link #withClassArchives}). */
    public PlatformOptions(Path projectRoot, Path logDirectory, Map<PlatformService, Integer> ports,
                           List<String> jvmOptions, Map<String, String> environment, Duration readyTimeout,
                           Map<PlatformService, Map<String, String>> serviceEnvironment, List<String> launcher) {
        this(projectRoot, logDirectory, ports, jvmOptions, environment, readyTimeout, serviceEnvironment, launcher, null);
    }

    /**
     * The same options, each service's JVM starting from its class-data archive in {@code folder} once
     * there is a current one, and making it at its exit otherwise ({@link ServiceClassArchives}: ./stack).
     */
    public PlatformOptions withClassArchives(Path folder) {
        return new PlatformOptions(projectRoot, logDirectory, ports, jvmOptions, environment, readyTimeout, serviceEnvironment,
                launcher, new ServiceClassArchives(folder));
    }

    /** Each service's {@code java} started as it is. */
    public PlatformOptions(Path projectRoot, Path logDirectory, Map<PlatformService, Integer> ports,
                           List<String> jvmOptions, Map<String, String> environment, Duration readyTimeout,
                           Map<PlatformService, Map<String, String>> serviceEnvironment) {
        this(projectRoot, logDirectory, ports, jvmOptions, environment, readyTimeout, serviceEnvironment, List.of());
    }

    /** The same options, each service's {@code java} run under {@code launcher} (a command and its arguments). */
    public PlatformOptions withLauncher(List<String> launcher) {
        return new PlatformOptions(projectRoot, logDirectory, ports, jvmOptions, environment, readyTimeout, serviceEnvironment,
                launcher, classArchives);
    }

    /** The command line of one service: the launcher, then {@code java}, then its JVM options and arguments. */
    public List<String> commandOf(PlatformService service, String java, List<String> arguments) {
        return commandOf(service, java, arguments, false);
    }

    /**
     * As {@link #commandOf(PlatformService, String, List)}; {@code firstInstance}: the service's own JVM (not a
     * replica), which makes its class-data archive at its exit when there is no current one ({@link #withClassArchives}).
     */
    public List<String> commandOf(PlatformService service, String java, List<String> arguments, boolean firstInstance) {
        List<String> command = new ArrayList<>(launcher);
        command.add(java);
        command.addAll(jvmOptionsOf(jvmOptions, service));
        if (classArchives != null) {
            command.addAll(classArchives.options(service, service.application(projectRoot), firstInstance));
        }
        command.addAll(arguments);
        return command;
    }

    /** Every service gets the same environment. */
    public PlatformOptions(Path projectRoot, Path logDirectory, Map<PlatformService, Integer> ports,
                           List<String> jvmOptions, Map<String, String> environment, Duration readyTimeout) {
        this(projectRoot, logDirectory, ports, jvmOptions, environment, readyTimeout, Map.of());
    }

    /** The environment one service starts with: the shared one, then its own over it. */
    public Map<String, String> environmentOf(PlatformService service) {
        Map<String, String> merged = new HashMap<>(environment);
        merged.putAll(serviceEnvironment.getOrDefault(service, Map.of()));
        return merged;
    }

    /** Small heaps: eight JVMs share a developer's machine (override with STACK_JAVA_OPTS). */
    public static final List<String> DEFAULT_JVM_OPTIONS = List.of(
            "-Xms32m", "-Xmx160m", "-XX:+UseSerialGC", "-XX:MaxMetaspaceSize=160m",
            "-XX:ReservedCodeCacheSize=64m", "-Xss512k", "-XX:MaxDirectMemorySize=64m");

    /**
     * The end-to-end tests' platforms: {@link #DEFAULT_JVM_OPTIONS} with the client compiler only
     * ({@code -XX:TieredStopAtLevel=1}). A test platform's JVMs start often and live minutes, with
     * eleven JVMs sharing two cores: C2's compilations cost more CPU than its faster code gives
     * back (the seven services start in about 33 s instead of 47 on two cores). The benchmarks keep the
     * defaults, whose figures are of settled, C2-compiled code.
     */
    public static final List<String> TEST_JVM_OPTIONS = Stream.concat(DEFAULT_JVM_OPTIONS.stream(),
            Stream.of("-XX:TieredStopAtLevel=1")).toList();

    /**
     * ./stack's services (issue 44): {@link #DEFAULT_JVM_OPTIONS} with the client compiler only, as the
     * end-to-end platforms run ({@link #TEST_JVM_OPTIONS}). Eight JVMs start at once on a developer's
     * machine and then mostly wait: C1 alone starts them on about a quarter less CPU (bench/footprint.sh: 37
     * CPU-seconds to readiness for the eight instead of 50), and with their class-data archives
     * ({@link #withClassArchives}) on 23. An idle service's heap holds some 20 MB live (after a full
     * collection) in 50-55 MB committed with {@link #DEFAULT_JVM_OPTIONS}, a third of it the young generation
     * (all of it touched): here the young generation is 4 MB ({@code -Xmn4m}) and the heap starts at 8 MB
     * ({@code -Xms8m}): a requests-service replica idle 190 MB resident instead of 201, on 3 % more CPU seconds to
     * readiness (70 young collections instead of 20). Tighter free ratios ({@code -XX:MinHeapFreeRatio=10
     * -XX:MaxHeapFreeRatio=20}) saved 3 MB more for 10 % more CPU (11 full collections in the start instead of 5)
     * and are not used. C1's code stays near 10 MB, so its cache is capped at 32 MB. The JDK's own class-data
     * archive is mapped where every JVM of the stack shares it ({@link JavaProcesses#JDK_ARCHIVE_SHARED}).
     * The benchmarks keep C2 and {@link #DEFAULT_JVM_OPTIONS}: their figures are of settled, C2-compiled
     * code, as a deployment runs. {@code STACK_JAVA_OPTS} replaces them.
     */
    public static final List<String> STACK_JVM_OPTIONS = Stream.concat(Stream.of(
            "-Xms8m", "-Xmx160m", "-Xmn4m", "-XX:+UseSerialGC", "-XX:MaxMetaspaceSize=160m", "-XX:ReservedCodeCacheSize=32m",
            "-Xss512k", "-XX:MaxDirectMemorySize=64m", "-XX:TieredStopAtLevel=1"), JavaProcesses.JDK_ARCHIVE_SHARED.stream()).toList();

    /** In a JVM option, replaced by the service's module name ({@link #jvmOptionsOf}). */
    public static final String MODULE = "{module}";
    private static final String SHARED_ARCHIVE = "-XX:SharedArchiveFile=";

    /**
     * The options one service's JVM gets: {@value #MODULE} in each replaced by its module name (a
     * class-data archive per service, {@code -XX:SharedArchiveFile=<folder>/{module}.jsa}), and a
     * {@code -XX:SharedArchiveFile} whose file does not exist (yet) left out, so that a platform
     * can name archives another run makes meanwhile: the JVMs started after it use them.
     */
    public static List<String> jvmOptionsOf(List<String> jvmOptions, PlatformService service) {
        return jvmOptions.stream().map(option -> option.replace(MODULE, service.module()))
                .filter(option -> !option.startsWith(SHARED_ARCHIVE)
                        || Files.isRegularFile(Path.of(option.substring(SHARED_ARCHIVE.length()))))
                .toList();
    }

    public static List<String> jvmOptionsFrom(String override) {
        return jvmOptionsFrom(override, DEFAULT_JVM_OPTIONS);
    }

    /** {@code override} split at spaces, or {@code defaults} when it is unset or blank. */
    public static List<String> jvmOptionsFrom(String override, List<String> defaults) {
        return override == null || override.isBlank() ? defaults : Arrays.asList(override.trim().split("\\s+"));
    }

    /** The fixed ports of ./stack. */
    public static Map<PlatformService, Integer> stackPorts() {
        Map<PlatformService, Integer> ports = new EnumMap<>(PlatformService.class);
        for (PlatformService service : PlatformService.values()) {
            ports.put(service, service.stackPort());
        }
        return ports;
    }

    /** Free ports, for tests that run beside anything else. */
    public static Map<PlatformService, Integer> randomPorts() {
        Map<PlatformService, Integer> ports = new EnumMap<>(PlatformService.class);
        for (PlatformService service : PlatformService.values()) {
            ports.put(service, FreePorts.next());
        }
        return ports;
    }
}
