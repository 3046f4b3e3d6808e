package io.fleetlake.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The monitoring of the compose deployment holds together: Prometheus scrapes each service on the port that service
 * serves its metrics on, the JMX exporter agents name rules files that exist, Grafana's panels query the provisioned
 * data source, and every {@code fleet_*} series a rule, a panel or a JMX rule names is documented in
 * deploy/prometheus/README.md.
 */
class MonitoringDeploymentTest {
    private static final Pattern JAVA_AGENT = Pattern.compile("-javaagent:[^=]+=(\\d+):(\\S+)");
    private static final Pattern FLINK_REPORTER_PORT = Pattern.compile("metrics\\.reporter\\.fleet\\.port:\\s*(\\d+)");
    private static final Pattern FLEET_SERIES = Pattern.compile("\\bfleet_[a-z0-9_]+");
    private static final String JMX_RULES_MOUNT = "/opt/jmx-exporter/rules/";
    /** Ports third-party images serve metrics on by default. */
    private static final Map<String, Integer> IMAGE_METRICS_PORTS =
            Map.of("trinodb/trino", 8443, "sapcc/mosquitto-exporter", 9234, "prom/prometheus", 9090);

    private final ComposeFile compose = Repository.exampleDeployment();

    @Test
    void prometheusScrapesEveryServiceOnThePortItServesMetricsOn() throws IOException {
        List<String> mismatches = new ArrayList<>();
        Set<String> jobs = new TreeSet<>();
        for (Map<String, Object> job : scrapeJobs()) {
            jobs.add((String) job.get("job_name"));
            for (String target : targets(job)) {
                String host = target.substring(0, target.indexOf(':'));
                int port = Integer.parseInt(target.substring(target.indexOf(':') + 1));
                String service = host.equals("localhost") ? "prometheus" : host;
                if (!compose.serviceNames().contains(service)) {
                    mismatches.add(job.get("job_name") + ": " + target + " is not a service of the compose file");
                } else if (!metricsPorts(service).contains(port)) {
                    mismatches.add(job.get("job_name") + ": " + service + " serves metrics on " + metricsPorts(service)
                            + ", not " + port);
                }
            }
        }

        assertThat(mismatches).isEmpty();
        assertThat(jobs)
                .containsExactlyInAnyOrder(
                        "prometheus",
                        "kafka",
                        "connect",
                        "mqtt",
                        "pipeline",
                        "catalog",
                        "dashboard",
                        "maintenance",
                        "exporter",
                        "trino");
    }

    @Test
    void theJmxExporterAgentsUseRulesFilesOfTheRepository() {
        List<String> rules = new ArrayList<>();
        for (String service : compose.serviceNames()) {
            for (String value : compose.environment(service).values()) {
                Matcher agent = JAVA_AGENT.matcher(value);
                while (agent.find()) {
                    rules.add(service + " " + agent.group(2));
                    assertThat(agent.group(2)).startsWith(JMX_RULES_MOUNT);
                    assertThat(Repository.file(
                                    "deploy/prometheus/jmx/" + agent.group(2).substring(JMX_RULES_MOUNT.length())))
                            .as("rules of the agent of %s", service)
                            .isRegularFile();
                }
            }
        }

        assertThat(rules)
                .containsExactlyInAnyOrder(
                        "kafka /opt/jmx-exporter/rules/kafka-broker.yml",
                        "connect /opt/jmx-exporter/rules/connect-worker.yml");
    }

    @Test
    void grafanaPanelsQueryTheProvisionedDataSource() throws IOException {
        Map<String, Object> datasources =
                yaml(Repository.file("deploy/grafana/provisioning/datasources/prometheus.yml"));
        @SuppressWarnings("unchecked")
        String uid = ((List<Map<String, Object>>) datasources.get("datasources"))
                .get(0)
                .get("uid")
                .toString();
        List<String> others = new ArrayList<>();
        for (JsonNode panel : dashboard().path("panels")) {
            if (panel.path("type").asText().equals("row")) {
                continue;
            }
            if (!panel.path("datasource").path("uid").asText().equals(uid)) {
                others.add(panel.path("title").asText());
            }
            for (JsonNode target : panel.path("targets")) {
                assertThat(target.path("expr").asText())
                        .as("query of panel %s", panel.path("title"))
                        .isNotBlank();
            }
        }

        assertThat(others).as("panels with another data source than %s", uid).isEmpty();
    }

    @Test
    void everySeriesTheRulesPanelsAndJmxRulesNameIsDocumented() throws IOException {
        String documentation = Files.readString(Repository.file("deploy/prometheus/README.md"));
        Set<String> named = new TreeSet<>();
        named.addAll(series(Files.readString(Repository.file("deploy/prometheus/rules/fleet-alerts.yml"))));
        named.addAll(series(Files.readString(Repository.file("deploy/prometheus/prometheus.yml"))));
        try (Stream<Path> files = Files.list(Repository.file("deploy/prometheus/jmx"))) {
            for (Path file : files.toList()) {
                named.addAll(series(Files.readString(file)));
            }
        }
        for (JsonNode panel : dashboard().path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                named.addAll(series(target.path("expr").asText()));
            }
        }

        assertThat(named).hasSizeGreaterThan(30);
        assertThat(named.stream()
                        .filter(name -> !documentation.contains("`" + name + "`"))
                        .toList())
                .as("series named in deploy/prometheus and deploy/grafana but missing from deploy/prometheus/README.md")
                .isEmpty();
    }

    /** The {@code fleet_*} series a text names; a histogram's {@code _bucket} series counts as the histogram. */
    private static Set<String> series(String text) {
        Set<String> names = new TreeSet<>();
        Matcher matcher = FLEET_SERIES.matcher(text);
        while (matcher.find()) {
            // A prefix in a comment ("fleet_kafka_*") names no series.
            if (!matcher.group().endsWith("_")) {
                names.add(matcher.group().replaceAll("_(bucket|sum|count)$", ""));
            }
        }
        return names;
    }

    private Set<Integer> metricsPorts(String service) {
        Set<Integer> ports = new TreeSet<>();
        compose.environment(service).forEach((name, value) -> {
            Matcher agent = JAVA_AGENT.matcher(value);
            if (agent.find()) {
                ports.add(Integer.parseInt(agent.group(1)));
            }
            Matcher reporter = FLINK_REPORTER_PORT.matcher(value);
            if (reporter.find()) {
                ports.add(Integer.parseInt(reporter.group(1)));
            }
            if (name.endsWith("_METRICS_PORT") || name.equals("FLEET_EXPORTER_PORT")) {
                ports.add(Integer.parseInt(value));
            }
        });
        String image = compose.image(service).orElse("");
        IMAGE_METRICS_PORTS.forEach((prefix, port) -> {
            if (image.startsWith(prefix + ":")) {
                ports.add(port);
            }
        });
        return ports;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> scrapeJobs() throws IOException {
        return (List<Map<String, Object>>)
                yaml(Repository.file("deploy/prometheus/prometheus.yml")).get("scrape_configs");
    }

    @SuppressWarnings("unchecked")
    private static List<String> targets(Map<String, Object> job) {
        List<String> targets = new ArrayList<>();
        for (Map<String, Object> config : (List<Map<String, Object>>) job.get("static_configs")) {
            targets.addAll((List<String>) config.get("targets"));
        }
        return targets;
    }

    private static JsonNode dashboard() throws IOException {
        return new ObjectMapper()
                .readTree(Repository.file("deploy/grafana/dashboards/fleet-operations.json")
                        .toFile());
    }

    private static Map<String, Object> yaml(Path file) throws IOException {
        try (Reader reader = Files.newBufferedReader(file)) {
            return new Yaml().load(reader);
        }
    }
}
