package io.fleetlake.stack.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrometheusServerTest {
    @TempDir
    Path directory;

    @Test
    void theConfigurationScrapesEveryJobAndEvaluatesTheRules() {
        Map<String, List<String>> targets = new LinkedHashMap<>();
        targets.put("prometheus", List.of("127.0.0.1:19090"));
        targets.put("kafka", List.of("127.0.0.1:19094"));

        String yaml = PrometheusServer.configuration(
                targets,
                Optional.of(new PrometheusServer.TrinoTarget(
                        "127.0.0.1:18443",
                        "fleet-monitor",
                        Path.of("/data/prometheus/trino-password"),
                        Path.of("/data/trino/tls/ca.pem"))),
                List.of(Path.of("/repo/deploy/prometheus/rules/*.yml")));

        assertThat(yaml)
                .contains("rule_files:\n  - \"/repo/deploy/prometheus/rules/*.yml\"\n")
                .contains("  - job_name: \"prometheus\"\n    static_configs:\n      - targets: [\"127.0.0.1:19090\"]\n")
                .contains("  - job_name: \"kafka\"\n    static_configs:\n      - targets: [\"127.0.0.1:19094\"]\n")
                .contains("  - job_name: trino\n    metrics_path: /metrics\n    scheme: https\n    basic_auth:\n"
                        + "      username: \"fleet-monitor\"\n"
                        + "      password_file: \"/data/prometheus/trino-password\"\n"
                        + "    tls_config:\n      ca_file: \"/data/trino/tls/ca.pem\"\n"
                        + "    static_configs:\n      - targets: [\"127.0.0.1:18443\"]\n")
                .contains("        regex: trino_(execution_name_QueryManager|memory|failuredetector)_.*\n"
                        + "        action: keep\n");
    }

    @Test
    void theCommandLineBindsTheListenAddressAndKeepsTheDatabaseInTheDirectory() throws IOException {
        List<String> command = PrometheusServer.commandLine(
                Path.of("/usr/bin/prometheus"), directory, "127.0.0.1:19090", Map.of(), Optional.empty(), List.of());

        assertThat(command)
                .containsExactly(
                        "/usr/bin/prometheus",
                        "--config.file=" + directory.resolve("prometheus.yml"),
                        "--storage.tsdb.path=" + directory.resolve("data"),
                        "--storage.tsdb.retention.time=7d",
                        "--web.listen-address=127.0.0.1:19090");
        assertThat(Files.readString(directory.resolve("prometheus.yml"))).startsWith("# Written by the embedded stack");
    }

    @Test
    void withoutAnInstalledBinaryThereIsNoPrometheus() {
        assertThat(PrometheusServer.executable(Optional.empty(), directory.resolve("no-such-prometheus")))
                .isEmpty();
        assertThat(PrometheusServer.executable(Optional.of(Path.of("/opt/prometheus")), directory.resolve("none")))
                .contains(Path.of("/opt/prometheus"));
    }
}
