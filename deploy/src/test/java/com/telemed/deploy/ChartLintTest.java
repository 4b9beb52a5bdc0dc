package com.telemed.deploy;

import com.marcnuri.helm.LintResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code helm lint --strict} passes with each values file, given what that file leaves to the installer. */
class ChartLintTest {

    @TempDir
    Path work;

    @Test
    void valuesYamlWithItsRequiredSettingsAndSecrets() {
        assertClean(Chart.lint(work, Chart.VALUES, Chart.minimal()));
    }

    @Test
    void sandboxWithTheSecretsGivenAtInstall() {
        assertClean(Chart.lint(work, Chart.SANDBOX, Chart.SECRETS));
    }

    @Test
    void productionNeedsNothingMoreItsSecretsExistAlready() {
        assertClean(Chart.lint(work, Chart.PRODUCTION, Map.of()));
    }

    @Test
    void lintFailsOnValuesYamlAloneNamingWhatIsMissing() {
        LintResult result = Chart.lint(work, Chart.VALUES, Map.of());

        assertThat(result.isFailed()).isTrue();
        assertThat(String.join("\n", result.getMessages()))
                .contains("/global/serviceEnvironment")
                .contains("value must be one of 'sandbox', 'production'")
                .contains("/postgresql/host")
                .contains("/kafka/bootstrapServers")
                .contains("/smtp/host");
    }

    private static void assertClean(LintResult result) {
        assertThat(result.getMessages()).noneMatch(m -> m.contains("[ERROR]") || m.contains("[WARNING]"));
        assertThat(result.isFailed()).as(String.join("\n", result.getMessages())).isFalse();
    }
}
