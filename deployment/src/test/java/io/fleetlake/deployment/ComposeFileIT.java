package io.fleetlake.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.fleetlake.stack.compose.ComposeSecrets;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * docker-compose.yml as Docker Compose itself reads it: Debian's {@code docker-compose} 1.29.2 validates the file
 * against the Compose schema and resolves every variable without needing a Docker engine ({@code config -q}).
 */
class ComposeFileIT {
    private static final String DOCKER_COMPOSE = "docker-compose";

    @TempDir
    Path directory;

    @Test
    void dockerComposeAcceptsTheFileWithTheExampleVariables() throws IOException, InterruptedException {
        Result result = dockerCompose(List.of(
                "--env-file", Repository.ENVIRONMENT_EXAMPLE, "--file", Repository.COMPOSE_FILE, "config", "-q"));

        assertThat(result.exitCode())
                .as("docker-compose config output:%n%s", result.output())
                .isZero();
    }

    @Test
    void dockerComposeRefusesToRunWithoutTheSecretsOfTheEnvFile() throws IOException, InterruptedException {
        Path emptyEnvironment = Files.writeString(directory.resolve("empty.env"), "");

        Result result = dockerCompose(
                List.of("--env-file", emptyEnvironment.toString(), "--file", Repository.COMPOSE_FILE, "config", "-q"));

        assertThat(result.exitCode())
                .as("docker-compose config output:%n%s", result.output())
                .isNotZero();
        assertThat(result.output()).contains("in .env (see .env.example)");
    }

    /**
     * With a {@code .env} that {@code fleet secrets init} generated, Compose accepts the file and the preflight passes
     * with the environment Compose itself gives it; with the example's values, the preflight refuses to start.
     */
    @Test
    void aGeneratedEnvironmentPassesComposeAndThePreflightTheExampleOnlyCompose() throws Exception {
        Files.copy(Repository.file(Repository.ENVIRONMENT_EXAMPLE), directory.resolve(ComposeSecrets.EXAMPLE_FILE));
        ComposeSecrets secrets = ComposeSecrets.in(directory);
        secrets.initialise();

        Result generated = dockerCompose(List.of(
                "--env-file", secrets.environmentFile().toString(), "--file", Repository.COMPOSE_FILE, "config"));
        Result example = dockerCompose(
                List.of("--env-file", Repository.ENVIRONMENT_EXAMPLE, "--file", Repository.COMPOSE_FILE, "config"));

        assertThat(generated.exitCode()).as(generated.output()).isZero();
        assertThat(example.exitCode()).as(example.output()).isZero();
        PreflightScriptTest.Result passed = PreflightScriptTest.preflight(preflightEnvironment(generated.output()));
        PreflightScriptTest.Result refused = PreflightScriptTest.preflight(preflightEnvironment(example.output()));
        assertThat(passed.exitCode()).as(passed.output()).isZero();
        assertThat(refused.exitCode()).as(refused.output()).isEqualTo(1);
        assertThat(refused.output()).contains("  REDIS_PIPELINE_PASSWORD still holds the change-me placeholder");
    }

    /** The preflight service's environment in the output of {@code docker-compose config}. */
    private static Map<String, String> preflightEnvironment(String config) {
        Map<String, Object> document = new Yaml(new SafeConstructor(new LoaderOptions())).load(config);
        Map<?, ?> services = (Map<?, ?>) document.get("services");
        Map<?, ?> environment = (Map<?, ?>) ((Map<?, ?>) services.get("preflight")).get("environment");
        Map<String, String> result = new TreeMap<>();
        environment.forEach((name, value) -> result.put(name.toString(), value == null ? "" : value.toString()));
        return result;
    }

    private static Result dockerCompose(List<String> arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(DOCKER_COMPOSE);
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(Repository.root().toFile())
                .redirectErrorStream(true);
        // Compose prefers variables of its own environment to the env file: keep the example's values decisive.
        builder.environment()
                .keySet()
                .removeAll(DotEnvFile.read(Repository.file(Repository.ENVIRONMENT_EXAMPLE))
                        .variables()
                        .keySet());
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            return fail("Cannot run " + DOCKER_COMPOSE + " (" + e.getMessage() + "). Install the Debian package"
                    + " docker-compose (apt-get install -y docker-compose; CI installs it) to check "
                    + Repository.COMPOSE_FILE + "; no Docker engine is needed.");
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            return fail(DOCKER_COMPOSE + " did not finish within 2 minutes; output so far:%n%s", output);
        }
        return new Result(process.exitValue(), output);
    }

    private record Result(int exitCode, String output) {}
}
