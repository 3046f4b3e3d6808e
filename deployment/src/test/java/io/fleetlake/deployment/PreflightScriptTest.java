package io.fleetlake.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.stack.compose.ComposeSecrets;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The preflight service of docker-compose.yml: {@code deploy/preflight/preflight.sh} run with the environment the
 * compose file gives it, once with the variables of {@code .env.example} (refused, naming every placeholder) and once
 * with a {@code .env} that {@code fleet secrets init} generated (accepted).
 */
class PreflightScriptTest {
    private static final String SCRIPT = "deploy/preflight/preflight.sh";
    private static final String CHECK = "CHECK_";

    @TempDir
    Path directory;

    @Test
    void theExampleEnvironmentIsRefusedWithTheNameOfEveryPlaceholder() throws Exception {
        Result result = preflight(Repository.exampleDeployment().environment("preflight"));

        assertThat(result.exitCode()).as(result.output()).isEqualTo(1);
        Map<String, String> example = exampleVariables();
        Set<String> placeholders = example.entrySet().stream()
                .filter(entry -> entry.getValue().startsWith(ComposeSecrets.PLACEHOLDER))
                .map(Map.Entry::getKey)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(placeholders).contains("REDIS_PIPELINE_PASSWORD", "MINIO_ROOT_PASSWORD");
        for (String name : placeholders) {
            assertThat(result.output()).contains("  " + name + " still holds the change-me placeholder");
        }
        assertThat(result.output()).contains("./fleet secrets init").doesNotContain("  SIMULATOR_VEHICLES ");
    }

    @Test
    void aGeneratedEnvironmentPasses() throws Exception {
        Files.copy(Repository.file(Repository.ENVIRONMENT_EXAMPLE), directory.resolve(ComposeSecrets.EXAMPLE_FILE));
        ComposeSecrets secrets = ComposeSecrets.in(directory);
        secrets.initialise();
        ComposeFile generated =
                ComposeFile.read(Repository.file(Repository.COMPOSE_FILE), DotEnvFile.read(secrets.environmentFile()));

        Result result = preflight(generated.environment("preflight"));

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("variables set, none a placeholder");
    }

    @Test
    void anEmptyVariableIsRefusedByName() throws Exception {
        Map<String, String> environment =
                Map.of("CHECK_SIMULATOR_SEED", "", "CHECK_REDIS_PIPELINE_PASSWORD", "x".repeat(43));

        Result result = preflight(environment);

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.output())
                .contains("  SIMULATOR_SEED is unset or empty")
                .doesNotContain("REDIS_PIPELINE_PASSWORD");
        assertThat(preflight(Map.of()).exitCode())
                .as("nothing to check is a mistake")
                .isEqualTo(2);
    }

    @Test
    void thePreflightChecksEveryVariableOfTheExampleAndNothingElse() {
        Set<String> checked = new TreeSet<>();
        Repository.exampleDeployment().environment("preflight").forEach((name, value) -> {
            assertThat(name).startsWith(CHECK);
            checked.add(name.substring(CHECK.length()));
        });

        assertThat(checked).isEqualTo(new TreeSet<>(exampleVariables().keySet()));
    }

    @Test
    void everyOtherServiceWaitsForThePreflight() {
        ComposeFile compose = Repository.exampleDeployment();
        for (String service : compose.serviceNames()) {
            if (!service.equals("preflight")) {
                assertThat(compose.dependsOn(service))
                        .as(service)
                        .containsEntry("preflight", "service_completed_successfully");
            }
        }
    }

    private static Map<String, String> exampleVariables() {
        return DotEnvFile.read(Repository.file(Repository.ENVIRONMENT_EXAMPLE)).variables();
    }

    static Result preflight(Map<String, String> environment) throws IOException, InterruptedException {
        ProcessBuilder builder =
                new ProcessBuilder("sh", Repository.file(SCRIPT).toString()).redirectErrorStream(true);
        Map<String, String> processEnvironment = builder.environment();
        String path = processEnvironment.get("PATH");
        processEnvironment.clear();
        processEnvironment.put("PATH", path);
        processEnvironment.putAll(new HashMap<>(environment));
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS))
                .as("preflight finished")
                .isTrue();
        return new Result(process.exitValue(), output);
    }

    record Result(int exitCode, String output) {}
}
