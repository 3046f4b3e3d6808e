package io.fleetlake.stack.metrics;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The embedded stack's Prometheus: Debian's {@code prometheus} binary scraping every component's metrics endpoint with
 * the job names of the compose deployment ({@code deploy/prometheus/prometheus.yml}) and evaluating the same rule
 * files, bound to the stack's host, its database under the data folder.
 */
public final class PrometheusServer {
    /** Where Debian's package installs it. */
    public static final Path DEFAULT_EXECUTABLE = Path.of("/usr/bin/prometheus");

    private PrometheusServer() {}

    /** The executable to run: the configured one, or Debian's when it is installed; empty when there is none. */
    public static Optional<Path> executable(Optional<Path> configured) {
        return executable(configured, DEFAULT_EXECUTABLE);
    }

    static Optional<Path> executable(Optional<Path> configured, Path installed) {
        if (configured.isPresent()) {
            return configured;
        }
        return Files.isExecutable(installed) ? Optional.of(installed) : Optional.empty();
    }

    /**
     * Writes {@code prometheus.yml} into {@code directory} and returns the command line that runs Prometheus with it.
     *
     * @param targets per job name, the {@code host:port} of its metrics endpoints
     * @param trinoTarget Trino's coordinator, whose {@code /metrics} is served over HTTPS to a user with a password
     * @param ruleFiles glob patterns of the rule files to evaluate
     */
    public static List<String> commandLine(
            Path executable,
            Path directory,
            String listenAddress,
            Map<String, List<String>> targets,
            Optional<TrinoTarget> trinoTarget,
            List<Path> ruleFiles) {
        requireNonNull(executable, "executable is null");
        Path configFile = directory.resolve("prometheus.yml");
        try {
            Files.createDirectories(directory.resolve("data"));
            Files.writeString(configFile, configuration(targets, trinoTarget, ruleFiles));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + configFile, e);
        }
        List<String> command = new ArrayList<>();
        command.add(executable.toString());
        command.add("--config.file=" + configFile);
        command.add("--storage.tsdb.path=" + directory.resolve("data"));
        command.add("--storage.tsdb.retention.time=7d");
        command.add("--web.listen-address=" + listenAddress);
        return command;
    }

    /** The configuration file: a pure function, unit-tested and checked with promtool. */
    public static String configuration(
            Map<String, List<String>> targets, Optional<TrinoTarget> trinoTarget, List<Path> ruleFiles) {
        StringBuilder yaml = new StringBuilder();
        yaml.append(
                "# Written by the embedded stack at every start of Prometheus; the jobs of deploy/prometheus/prometheus.yml.\n");
        yaml.append("global:\n  scrape_interval: 15s\n  scrape_timeout: 10s\n  evaluation_interval: 15s\n");
        yaml.append("rule_files:\n");
        for (Path ruleFile : ruleFiles) {
            yaml.append("  - ").append(quote(ruleFile.toString())).append('\n');
        }
        yaml.append("scrape_configs:\n");
        for (Map.Entry<String, List<String>> job : new LinkedHashMap<>(targets).entrySet()) {
            yaml.append("  - job_name: ").append(quote(job.getKey())).append('\n');
            appendTargets(yaml, job.getValue());
        }
        trinoTarget.ifPresent(target -> {
            // The password stays in its owner-only file: Prometheus reads it at every scrape.
            yaml.append("  - job_name: trino\n    metrics_path: /metrics\n    scheme: https\n    basic_auth:\n"
                    + "      username: " + quote(target.user()) + "\n      password_file: "
                    + quote(target.passwordFile().toString()) + "\n    tls_config:\n      ca_file: "
                    + quote(target.caCertificate().toString()) + "\n");
            appendTargets(yaml, List.of(target.address()));
            // Trino serves about 11,000 series; the query manager's, the memory pools' and the failure detector's stay.
            yaml.append("    metric_relabel_configs:\n      - source_labels: [__name__]\n"
                    + "        regex: trino_(execution_name_QueryManager|memory|failuredetector)_.*\n"
                    + "        action: keep\n");
        });
        return yaml.toString();
    }

    /**
     * Trino's HTTPS endpoint and how Prometheus signs in to it.
     *
     * @param address {@code host:port} of Trino's HTTPS port
     * @param user a Trino user that may read system information ({@code fleet-monitor})
     * @param passwordFile an owner-only file holding only that user's password
     * @param caCertificate the CA certificate Trino's certificate is signed by
     */
    public record TrinoTarget(String address, String user, Path passwordFile, Path caCertificate) {
        public TrinoTarget {
            requireNonNull(address, "address is null");
            requireNonNull(user, "user is null");
            requireNonNull(passwordFile, "passwordFile is null");
            requireNonNull(caCertificate, "caCertificate is null");
        }
    }

    private static void appendTargets(StringBuilder yaml, List<String> targets) {
        yaml.append("    static_configs:\n      - targets: [");
        for (int index = 0; index < targets.size(); index++) {
            yaml.append(index == 0 ? "" : ", ").append(quote(targets.get(index)));
        }
        yaml.append("]\n");
    }

    private static String quote(String value) {
        return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
