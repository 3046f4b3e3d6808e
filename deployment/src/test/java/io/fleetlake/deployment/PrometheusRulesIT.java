package io.fleetlake.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The alert rules and the compose deployment's Prometheus configuration as Prometheus itself reads them: Debian's
 * {@code promtool} (package {@code prometheus}) checks the rule files and the configuration, and runs the rules' unit
 * tests ({@code deploy/prometheus/tests}), in which synthetic series must fire each alert and others must not.
 */
class PrometheusRulesIT {
    private static final String PROMTOOL = "promtool";
    private static final Path PROMETHEUS_DIRECTORY = Path.of("deploy", "prometheus");

    @TempDir
    Path directory;

    @Test
    void promtoolAcceptsEveryRuleFile() throws IOException, InterruptedException {
        List<String> arguments = new ArrayList<>(List.of("check", "rules"));
        arguments.addAll(files("rules"));

        Result result = promtool(arguments);

        assertThat(result.exitCode())
                .as("promtool check rules output:%n%s", result.output())
                .isZero();
    }

    @Test
    void theAlertRulesPassTheirUnitTests() throws IOException, InterruptedException {
        List<String> arguments = new ArrayList<>(List.of("test", "rules"));
        arguments.addAll(files("tests"));

        Result result = promtool(arguments);

        assertThat(result.exitCode())
                .as("promtool test rules output:%n%s", result.output())
                .isZero();
        assertThat(result.output()).contains("SUCCESS");
    }

    /** The unit tests can fail: a rule whose threshold is changed no longer passes them. */
    @Test
    void theUnitTestsCatchAChangedThreshold() throws IOException, InterruptedException {
        Path rules = Files.createDirectories(directory.resolve("rules"));
        Path tests = Files.createDirectories(directory.resolve("tests"));
        String alerts = Files.readString(prometheusFile("rules/fleet-alerts.yml"));
        String changed = alerts.replace(
                "max by (group) (fleet_kafka_consumer_lag_seconds) > 10",
                "max by (group) (fleet_kafka_consumer_lag_seconds) > 60");
        assertThat(changed).as("the lag rule's expression").isNotEqualTo(alerts);
        Files.writeString(rules.resolve("fleet-alerts.yml"), changed);
        Path test = Files.copy(prometheusFile("tests/fleet-alerts-test.yml"), tests.resolve("fleet-alerts-test.yml"));

        Result result = promtool(List.of("test", "rules", test.toString()));

        assertThat(result.exitCode())
                .as("promtool output:%n%s", result.output())
                .isNotZero();
        assertThat(result.output()).contains("FleetConsumerLagHigh");
    }

    @Test
    void promtoolAcceptsTheComposePrometheusConfiguration() throws IOException, InterruptedException {
        Result result = promtool(
                List.of("check", "config", prometheusFile("prometheus.yml").toString()));

        assertThat(result.exitCode())
                .as("promtool check config output:%n%s", result.output())
                .isZero();
    }

    private static List<String> files(String folder) throws IOException {
        try (Stream<Path> files =
                Files.list(Repository.root().resolve(PROMETHEUS_DIRECTORY).resolve(folder))) {
            List<String> names = files.filter(file -> file.toString().endsWith(".yml"))
                    .map(Path::toString)
                    .sorted()
                    .toList();
            assertThat(names).as("YAML files in deploy/prometheus/%s", folder).isNotEmpty();
            return names;
        }
    }

    private static Path prometheusFile(String relativePath) {
        return Repository.root().resolve(PROMETHEUS_DIRECTORY).resolve(relativePath);
    }

    private static Result promtool(List<String> arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(PROMTOOL);
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(Repository.root().toFile())
                .redirectErrorStream(true);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            return fail("Cannot run " + PROMTOOL + " (" + e.getMessage() + "). Install Debian's package prometheus"
                    + " (apt-get install -y prometheus; ./fleet test installs it), which brings promtool, to check"
                    + " and unit-test the alert rules in deploy/prometheus.");
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            return fail(PROMTOOL + " did not finish within 2 minutes; output so far:%n%s", output);
        }
        return new Result(process.exitValue(), output);
    }

    private record Result(int exitCode, String output) {}
}
