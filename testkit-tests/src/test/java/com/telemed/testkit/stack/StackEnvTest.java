package com.telemed.testkit.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.e2e.RunningPlatform;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator key {@code ./stack env} exports (issue #45): the key in use, as a value, whether the launcher
 * generated it or took it from {@code OPS_API_KEY}. Before, a key from the environment was printed as the
 * text {@code $OPS_API_KEY}, empty in a new shell (every operator call then answered {@code Ops Key missing}),
 * and {@code .stack/ops-api-key} kept an older generated key. Runs the script's {@code env} command itself
 * against a stack home made here (it starts nothing).
 */
class StackEnvTest {

    @TempDir
    Path home;

    @Test
    void aKeyFromTheEnvironmentIsKeptAsTheKeyInUse() throws IOException {
        Path kept = home.resolve("ops-api-key");
        assertEquals("ops_from_environment", OperatorKey.resolve(" ops_from_environment\n", kept));
        assertEquals("ops_from_environment\n", Files.readString(kept));
        // Without OPS_API_KEY the next up uses the kept key: the one that was in use.
        assertEquals("ops_from_environment", OperatorKey.resolve(null, kept));
        assertEquals("ops_from_environment", OperatorKey.resolve("  ", kept));
    }

    @Test
    void aKeyFromTheEnvironmentReplacesAGeneratedOne() throws IOException {
        Path kept = home.resolve("ops-api-key");
        String generated = OperatorKey.resolve(null, kept);
        assertTrue(generated.matches("ops_[0-9a-f]{48}"), generated);
        assertEquals(generated, OperatorKey.resolve(null, kept));
        assertEquals("ops_chosen", OperatorKey.resolve("ops_chosen", kept));
        assertEquals("ops_chosen\n", Files.readString(kept));
    }

    @Test
    void envExportsTheKeyInUseAsAValue() throws Exception {
        writeDemo();
        OperatorKey.resolve("ops_from_environment", home.resolve("ops-api-key"));
        // A new shell: OPS_API_KEY is not set there, or set to something else.
        for (String shellKey : new String[] {null, "", "ops_some_other_value"}) {
            String output = env(shellKey);
            assertTrue(output.contains("\nexport OPS_KEY=ops_from_environment\n"), output);
            assertFalse(output.contains("$"), output);
        }
    }

    @Test
    void envWithoutAKeptKeyPrintsTheEnvironmentsValue() throws Exception {
        writeDemo();
        String output = env("ops_only_in_the_environment");
        assertTrue(output.contains("\nexport OPS_KEY=ops_only_in_the_environment\n"), output);
        assertFalse(output.contains("$OPS_API_KEY"), output);
    }

    @Test
    void envPrintsTheWholeWalkthroughEnvironment() throws Exception {
        writeDemo();
        OperatorKey.resolve(null, home.resolve("ops-api-key"));
        String key = Files.readString(home.resolve("ops-api-key")).trim();
        assertEquals("""
                export GATEWAY=http://127.0.0.1:8080
                export CONSOLE_URL=http://127.0.0.1:8080/console
                export OPS_KEY=%s
                export PARTNER_ID=partner-1
                export API_KEY=apx_0123456789abcdef0123456789abcdef
                export SMTP_HOST=127.0.0.1
                export SMTP_PORT=%d
                export IMAP_PORT=%d
                """.formatted(key, StackMain.SMTP_PORT, StackMain.IMAP_PORT), env(null));
    }

    private void writeDemo() throws IOException {
        Files.writeString(home.resolve("demo.properties"), "partnerId=partner-1\napiKey=apx_0123456789abcdef0123456789abcdef\n");
    }

    private String env(String opsApiKey) throws Exception {
        Path root = RunningPlatform.projectRoot();
        ProcessBuilder builder = new ProcessBuilder(root.resolve("stack").toString(), "env").directory(root.toFile())
                .redirectErrorStream(true);
        Map<String, String> environment = builder.environment();
        environment.put("STACK_HOME", home.toString());
        environment.remove("OPS_API_KEY");
        if (opsApiKey != null) {
            environment.put("OPS_API_KEY", opsApiKey);
        }
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), output);
        assertEquals(0, process.exitValue(), output);
        return output;
    }
}
