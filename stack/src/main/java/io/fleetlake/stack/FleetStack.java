package io.fleetlake.stack;

import static java.util.Objects.requireNonNull;

import io.fleetlake.identity.OwnerOnlyFiles;
import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.Topics;
import io.fleetlake.model.catalog.CatalogAuthentication;
import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.exporter.ExporterConfig;
import io.fleetlake.operations.exporter.FleetExporterMain;
import io.fleetlake.operations.health.HealthProbes;
import io.fleetlake.operations.status.StackStatusFile;
import io.fleetlake.redis.RedisRole;
import io.fleetlake.stack.JavaComponents.Module;
import io.fleetlake.stack.cluster.FlinkClusterComponents;
import io.fleetlake.stack.cluster.FlinkClusterSettings;
import io.fleetlake.stack.cluster.StackFlinkRest;
import io.fleetlake.stack.component.Component;
import io.fleetlake.stack.component.KafkaTopicsTask;
import io.fleetlake.stack.component.ProcessComponent;
import io.fleetlake.stack.identity.StackCatalogIdentity;
import io.fleetlake.stack.identity.StackDashboardIdentity;
import io.fleetlake.stack.identity.StackMqttIdentity;
import io.fleetlake.stack.identity.StackServiceSecrets;
import io.fleetlake.stack.maintenance.TableMaintenanceJob;
import io.fleetlake.stack.metrics.JmxExporterAgent;
import io.fleetlake.stack.metrics.PrometheusServer;
import io.fleetlake.stack.process.FleetHome;
import io.fleetlake.stack.supervision.SupervisionPolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fleet's stack: which components exist, what each depends on, how each is configured and how its health is
 * probed. The servers (Kafka, S3, MQTT, Redis, Trino, the catalog's database) come from a {@link StackServers}
 * provider; the project's own services are processes that bind to {@link StackSettings#host()} and keep their data
 * under the stack's data directory.
 */
public final class FleetStack {
    private static final Logger LOG = LoggerFactory.getLogger(FleetStack.class);
    public static final String KAFKA = "kafka";
    public static final String KAFKA_TOPICS = "kafka-topics";
    public static final String S3 = "s3";
    public static final String MQTT = "mqtt";
    public static final String REDIS = "redis";
    public static final String CATALOG = "catalog";
    public static final String CONNECT = "connect";
    public static final String PIPELINE = "pipeline";
    public static final String TRINO = "trino";
    public static final String PLANNING = "planning";
    public static final String DASHBOARD = "dashboard";
    public static final String MAINTENANCE = "maintenance";
    public static final String EXPORTER = "exporter";
    public static final String PROMETHEUS = "prometheus";

    /**
     * The query side, which the stack runs without while it is slow or failing (ingestion must not wait for it): these
     * start once every other component is healthy and are retried in the background instead of aborting the stack.
     */
    private static final Set<String> QUERY_SIDE = Set.of(TRINO, DASHBOARD, MAINTENANCE, EXPORTER, PROMETHEUS);

    /** Name the ingest worker registers the MQTT source connector under. */
    public static final String CONNECTOR_NAME = "mqtt-positions";

    private static final short REPLICATION_FACTOR = 1;
    private static final String PIPELINE_PARALLELISM = "pipeline.parallelism";
    private static final int DEFAULT_PIPELINE_PARALLELISM = 2;

    /** A Prometheus binary to run instead of Debian's {@code /usr/bin/prometheus}. */
    public static final String PROMETHEUS_EXECUTABLE = "stack.prometheus-executable";

    private final StackSettings settings;
    private final FleetHome home;
    private final StackServers servers;
    private final JavaComponents javaComponents;
    /**
     * Where the stack keeps the secrets of its own MQTT principals, created on the first start of the data folder: the
     * Connect worker reads the ingest secret from there itself.
     */
    private final Path mqttSecretsFile;
    /** The Connect REST passwords and the planning API's token of this data folder. */
    private final StackServiceSecrets serviceSecrets;
    /** The catalog's clients of the stack, one per role, created on the first start of the data folder. */
    private final StackCatalogIdentity catalogIdentity;

    private FleetStack(StackSettings settings, FleetHome home, StackServers servers) {
        this.settings = requireNonNull(settings, "settings is null");
        this.home = requireNonNull(home, "home is null");
        this.servers = requireNonNull(servers, "servers is null");
        this.javaComponents = new JavaComponents(settings, home);
        StackMqttIdentity mqttIdentity = StackMqttIdentity.of(settings);
        mqttIdentity.ensure();
        this.mqttSecretsFile = mqttIdentity.secretsFile();
        this.serviceSecrets = StackServiceSecrets.of(settings);
        this.catalogIdentity = StackCatalogIdentity.of(settings).ensure();
        StackDashboardIdentity.of(settings).ensure();
    }

    /** The stack with its default servers, {@link EmbeddedServers}. */
    public static EmbeddedStack create(StackSettings settings, FleetHome home) {
        return create(settings, home, new EmbeddedServers(settings, home));
    }

    /**
     * The stack with the servers of {@code servers}, built for the same settings; the project's own services are
     * processes launched by the stack in every case.
     */
    public static EmbeddedStack create(StackSettings settings, FleetHome home, StackServers servers) {
        StackStatusFile statusFile = new StackStatusFile(
                StackStatusFile.location(settings.dataDirectory()),
                ProcessHandle.current().pid(),
                Instant.now());
        List<Component> components = new FleetStack(settings, home, servers).components();
        Set<String> names = new HashSet<>();
        components.forEach(component -> names.add(component.name()));
        Set<String> optional = new HashSet<>(QUERY_SIDE);
        optional.retainAll(names);
        return new EmbeddedStack(
                components,
                optional,
                Optional.of(LauncherLock.location(settings.dataDirectory())),
                settings.startTimeout(),
                SupervisionPolicy.from(settings.configuration()),
                statusFile::write);
    }

    private List<Component> components() {
        String host = settings.host();
        List<Component> components = new ArrayList<>(servers.components());
        components.add(new KafkaTopicsTask(settings.kafkaBootstrapServers(), topics(), Set.of(KAFKA)));
        CatalogDatabase database = servers.catalogDatabase();
        Map<String, String> catalogKeys = new TreeMap<>(database.configuration());
        catalogKeys.putAll(Map.of(
                "catalog.host", host,
                "catalog.port", javaComponents.port(StackPort.CATALOG),
                "catalog.metrics-port", javaComponents.port(StackPort.CATALOG_METRICS),
                "catalog.data-dir", javaComponents.directory(CATALOG),
                "catalog.warehouse", settings.warehouse(),
                "catalog.s3-endpoint", settings.s3Endpoint(),
                "catalog.s3-access-key", settings.s3AccessKey(),
                "catalog.s3-secret-key", settings.s3SecretKey(),
                "catalog.s3-region", settings.s3Region()));
        // In the catalog's owner-only configuration file, never on its command line.
        catalogKeys.put(
                "catalog.clients-file",
                StackCatalogIdentity.clientsFile(settings).toString());
        catalogKeys.put("catalog.token-signing-key", catalogIdentity.signingKey());
        components.add(javaComponents.component(
                CATALOG,
                union(Set.of(S3), database.dependencies()),
                new Module("iceberg-catalog", "iceberg-catalog", "io.fleetlake.catalog.RestCatalogServerMain"),
                List.of("-Xmx384m"),
                catalogKeys,
                HealthProbes.http(URI.create(settings.catalogUri() + CatalogAuthentication.HEALTH_PATH), body -> true),
                settings.catalogUri(),
                settings.port(StackPort.CATALOG)));
        String connectUri = "http://" + host + ":" + settings.port(StackPort.CONNECT);
        components.add(javaComponents.component(
                CONNECT,
                Set.of(KAFKA_TOPICS, MQTT),
                new Module("ingest-connect", "ingest-connect", "io.fleetlake.ingest.ConnectWorkerMain"),
                concat(
                        List.of("-Xmx512m"),
                        new JmxExporterAgent(home)
                                .jvmOptions(
                                        CONNECT, host, settings.port(StackPort.CONNECT_METRICS), "connect-worker.yml")),
                Map.of(
                        "connect.host", host,
                        "connect.port", javaComponents.port(StackPort.CONNECT),
                        "connect.bootstrap-servers", settings.kafkaBootstrapServers(),
                        "connect.connector-name", CONNECTOR_NAME,
                        "mqtt.server-uri", settings.mqttUri(),
                        "mqtt.username", StackMqttIdentity.INGEST,
                        // A reference that Connect resolves where it starts the tasks: the secret itself is in no
                        // configuration Connect stores, serves over REST or logs (ingest-connect README).
                        "mqtt.password",
                                "${file:" + mqttSecretsFile.toAbsolutePath() + ":" + StackMqttIdentity.INGEST + "}",
                        // In the worker's owner-only configuration file, never on its command line.
                        "connect.rest-admin-password",
                                serviceSecrets.connectAdmin().password(),
                        "connect.rest-monitor-password",
                                serviceSecrets.connectMonitor().password()),
                // Healthy when the connector and its tasks run in this very worker (not a status left by the previous
                // process), are connected to MQTT and no message waits too long for Kafka (ingest-connect README).
                HealthProbes.http(URI.create(connectUri + "/ingest/health"), body -> true),
                connectUri,
                settings.port(StackPort.CONNECT)));
        components.add(javaComponents.component(
                PLANNING,
                Set.of(),
                // The planning API serves the routes of the simulated fleet: same seed, size and stop duration.
                new Module("simulator", "simulator", "io.fleetlake.simulator.PlanningApiMain", List.of("simulator")),
                List.of("-Xmx256m"),
                Map.of(
                        "planning.host",
                        host,
                        "planning.port",
                        javaComponents.port(StackPort.PLANNING),
                        "planning.token",
                        serviceSecrets.planningToken()),
                HealthProbes.http(URI.create(settings.planningUri() + "/healthz"), body -> true),
                settings.planningUri(),
                settings.port(StackPort.PLANNING)));
        String flinkUri = settings.flinkRestUri();
        Map<String, String> pipelineKeys = new TreeMap<>(Map.ofEntries(
                Map.entry("pipeline.kafka-bootstrap-servers", settings.kafkaBootstrapServers()),
                Map.entry("pipeline.catalog-uri", settings.catalogUri()),
                Map.entry(
                        "pipeline.catalog-credential",
                        catalogIdentity.credential(CatalogRole.WRITER).value()),
                Map.entry("pipeline.warehouse", settings.warehouse()),
                Map.entry("pipeline.s3-endpoint", settings.s3Endpoint()),
                Map.entry("pipeline.s3-access-key", settings.s3AccessKey()),
                Map.entry("pipeline.s3-secret-key", settings.s3SecretKey()),
                Map.entry("pipeline.s3-region", settings.s3Region()),
                Map.entry("pipeline.redis-uri", settings.redisUri(RedisRole.PIPELINE)),
                Map.entry("pipeline.planning-uri", settings.planningUri()),
                Map.entry("enrichment.planning-token", serviceSecrets.planningToken()),
                Map.entry("pipeline.checkpoint-dir", javaComponents.directory(PIPELINE) + "/checkpoints"),
                // A graceful stop leaves its savepoint where the cluster mode finds it, and the other way
                // round.
                Map.entry("pipeline.handover-dir", settings.handoverDirectory().toString()),
                Map.entry("pipeline.rest-host", host),
                Map.entry("pipeline.rest-port", javaComponents.port(StackPort.FLINK)),
                Map.entry("pipeline.metrics-host", host),
                Map.entry("pipeline.metrics-port", javaComponents.port(StackPort.PIPELINE_METRICS))));
        // The stores of the MiniCluster's REST endpoint (mutual TLS) and of the pipeline's own client of it.
        pipelineKeys.putAll(StackFlinkRest.clientOptions(settings, "pipeline."));
        components.add(javaComponents.component(
                PIPELINE,
                Set.of(KAFKA_TOPICS, CATALOG, REDIS, PLANNING),
                new Module(
                        "flink-jobs",
                        "flink-jobs",
                        "io.fleetlake.flink.FleetPipelineMain",
                        List.of("validation", "enrichment")),
                List.of("-Xmx1g"),
                pipelineKeys,
                StackFlinkRest.runningJobProbe(settings, HealthProbes.PROBE_TIMEOUT),
                flinkUri,
                settings.port(StackPort.FLINK)));
        Map<String, String> dashboardKeys = new TreeMap<>(Map.of(
                "dashboard.host", host,
                "dashboard.port", javaComponents.port(StackPort.DASHBOARD),
                "dashboard.redis-uri", settings.redisUri(RedisRole.DASHBOARD),
                "dashboard.trino-jdbc-url", settings.trinoJdbcUrl(),
                "dashboard.trino-password", settings.trinoSecrets().password(TrinoUser.DASHBOARD),
                "dashboard.trino-ca", settings.trinoSecrets().caCertificate().toString(),
                "dashboard.flink-rest-uri", flinkUri,
                "dashboard.metrics-port", javaComponents.port(StackPort.DASHBOARD_METRICS),
                "dashboard.users-file",
                        StackDashboardIdentity.operatorsFile(settings).toString(),
                "dashboard.health-uri", "http://" + host + ":" + settings.port(StackPort.EXPORTER) + "/health"));
        dashboardKeys.putAll(StackFlinkRest.clientOptions(settings, "dashboard."));
        components.add(javaComponents.component(
                DASHBOARD,
                Set.of(REDIS, TRINO),
                new Module("dashboard", "dashboard", "io.fleetlake.dashboard.DashboardMain"),
                List.of("-Xmx256m"),
                dashboardKeys,
                HealthProbes.http(URI.create(settings.dashboardUri() + "/healthz"), body -> true),
                settings.dashboardUri(),
                settings.port(StackPort.DASHBOARD)));
        String maintenanceUri = "http://" + host + ":" + settings.port(StackPort.MAINTENANCE);
        Map<String, String> maintenanceKeys = new TreeMap<>(TableMaintenanceJob.stackKeys(settings));
        maintenanceKeys.put("maintenance.metrics-host", host);
        maintenanceKeys.put("maintenance.metrics-port", javaComponents.port(StackPort.MAINTENANCE));
        components.add(javaComponents.component(
                MAINTENANCE,
                Set.of(CATALOG),
                new Module(TableMaintenanceJob.MODULE, TableMaintenanceJob.MODULE, TableMaintenanceJob.MAIN_CLASS),
                List.of("-Xmx768m"),
                maintenanceKeys,
                HealthProbes.http(URI.create(maintenanceUri + "/metrics"), body -> true),
                maintenanceUri + "/metrics",
                settings.port(StackPort.MAINTENANCE)));
        components.add(exporter());
        prometheus().ifPresent(components::add);
        if (settings.pipelineMode() == PipelineMode.CLUSTER) {
            return withClusterPipeline(components);
        }
        return components;
    }

    /** fleet-exporter: lag, commit age, dead letters, Redis freshness and component probes as metrics. */
    private Component exporter() {
        String host = settings.host();
        URI metrics = StackHealthSources.metricsUri(host, settings.port(StackPort.EXPORTER));
        Map<String, String> keys = new TreeMap<>();
        keys.put("exporter.host", host);
        keys.put("exporter.port", javaComponents.port(StackPort.EXPORTER));
        keys.put("exporter.kafka-bootstrap-servers", settings.kafkaBootstrapServers());
        keys.put("exporter.redis-uri", settings.redisUri(RedisRole.MONITOR));
        keys.put("exporter.catalog-uri", settings.catalogUri());
        keys.put(
                "exporter.catalog-credential",
                catalogIdentity.credential(CatalogRole.READER).value());
        keys.put("exporter.connect-uri", StackHealthSources.connectUri(settings));
        keys.put("exporter.connect-password", serviceSecrets.connectMonitor().password());
        keys.put("exporter.connector-name", CONNECTOR_NAME);
        keys.put("exporter.flink-rest-uri", settings.flinkRestUri());
        keys.putAll(StackFlinkRest.clientOptions(settings, ExporterConfig.PREFIX));
        keys.put(
                "exporter.maintenance-metrics-uri",
                StackHealthSources.metricsUri(host, settings.port(StackPort.MAINTENANCE))
                        .toString());
        keys.put(
                "exporter.mqtt-metrics-uri",
                StackHealthSources.metricsUri(host, settings.port(StackPort.MQTT_METRICS))
                        .toString());
        keys.put(
                "exporter.probes",
                String.join(
                        ",",
                        List.of(
                                S3 + "=" + settings.s3Endpoint() + "/healthz",
                                MQTT + "=tcp://" + host + ":" + settings.port(StackPort.MQTT),
                                REDIS + "=" + settings.redisUri(RedisRole.MONITOR),
                                PLANNING + "=" + settings.planningUri() + "/healthz")));
        settings.configuration()
                .string("pipeline.consumer-group")
                .ifPresent(group -> keys.put("exporter.consumer-groups", group));
        return javaComponents.component(
                EXPORTER,
                Set.of(KAFKA_TOPICS),
                new Module("operations", "operations", FleetExporterMain.class.getName(), List.of("health")),
                List.of("-Xmx256m"),
                keys,
                HealthProbes.http(metrics, body -> true),
                metrics.toString(),
                settings.port(StackPort.EXPORTER));
    }

    /**
     * Prometheus scraping every component and evaluating deploy/prometheus/rules, when a binary is installed; the
     * stack runs without it otherwise, and says so.
     */
    private Optional<Component> prometheus() {
        Optional<Path> executable = PrometheusServer.executable(
                settings.configuration().string(PROMETHEUS_EXECUTABLE).map(Path::of));
        if (executable.isEmpty()) {
            LOG.info(
                    "Prometheus is not installed ({} not found; apt-get install prometheus, or set {}): the stack"
                            + " runs without it, and every component still serves its metrics",
                    PrometheusServer.DEFAULT_EXECUTABLE,
                    PROMETHEUS_EXECUTABLE);
            return Optional.empty();
        }
        String host = settings.host();
        String listen = host + ":" + settings.port(StackPort.PROMETHEUS);
        Map<String, List<String>> targets = new LinkedHashMap<>();
        targets.put(PROMETHEUS, List.of(listen));
        targets.put(KAFKA, List.of(host + ":" + settings.port(StackPort.KAFKA_METRICS)));
        targets.put(CONNECT, List.of(host + ":" + settings.port(StackPort.CONNECT_METRICS)));
        targets.put(MQTT, List.of(host + ":" + settings.port(StackPort.MQTT_METRICS)));
        targets.put(PIPELINE, List.of(host + ":" + settings.port(StackPort.PIPELINE_METRICS)));
        targets.put(CATALOG, List.of(host + ":" + settings.port(StackPort.CATALOG_METRICS)));
        targets.put(DASHBOARD, List.of(host + ":" + settings.port(StackPort.DASHBOARD_METRICS)));
        targets.put(MAINTENANCE, List.of(host + ":" + settings.port(StackPort.MAINTENANCE)));
        targets.put(EXPORTER, List.of(host + ":" + settings.port(StackPort.EXPORTER)));
        Path directory = settings.componentDirectory(PROMETHEUS);
        List<Path> rules = List.of(home.root().resolve("deploy/prometheus/rules/*.yml"));
        BooleanSupplier ready = HealthProbes.http(URI.create("http://" + listen + "/-/ready"), body -> true);
        return Optional.of(ProcessComponent.builder(PROMETHEUS)
                // No dependency on Trino: the trino job's CA file, which Prometheus reads once when it starts, exists
                // before any component starts (EmbeddedServers), and the alerts must run while Trino is down.
                .command(() -> PrometheusServer.commandLine(
                        executable.get(),
                        directory,
                        listen,
                        targets,
                        Optional.of(trinoScrapeTarget(settings, directory)),
                        rules))
                .workingDirectory(directory)
                .logFile(settings.logFile(PROMETHEUS))
                .healthProbe(ready)
                .listensOn(settings.port(StackPort.PROMETHEUS))
                .endpoint("http://" + listen)
                .build());
    }

    /** Trino's HTTPS port, scraped as fleet-monitor with its password in an owner-only file of Prometheus's own. */
    private static PrometheusServer.TrinoTarget trinoScrapeTarget(StackSettings settings, Path directory) {
        Path passwordFile = directory.resolve("trino-password");
        try {
            OwnerOnlyFiles.write(
                    passwordFile,
                    settings.trinoSecrets().password(TrinoUser.MONITOR).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + passwordFile, e);
        }
        return new PrometheusServer.TrinoTarget(
                settings.host() + ":" + settings.port(StackPort.TRINO_HTTPS),
                TrinoUser.MONITOR.userName(),
                passwordFile,
                settings.trinoSecrets().caCertificate());
    }

    private static List<String> concat(List<String> first, List<String> second) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    /**
     * The pipeline on a Flink session cluster instead of its own MiniCluster ({@value PipelineMode#KEY} = {@code
     * cluster}): a JobManager, TaskManagers and the job in place of the {@value #PIPELINE} process, with the same
     * dependencies and configuration.
     */
    private List<Component> withClusterPipeline(List<Component> components) {
        List<Component> replaced = new ArrayList<>();
        for (Component component : components) {
            if (component.name().equals(PIPELINE)) {
                replaced.addAll(clusterPipeline(Set.of(S3), component.dependencies()));
            } else {
                replaced.add(component);
            }
        }
        return replaced;
    }

    /**
     * The cluster's components. The job reads the configuration file the embedded pipeline would read, without what
     * only the MiniCluster uses (its checkpoint and handover folders and REST address: the cluster has its own
     * checkpoints, and the stack stops and restores its job) and without {@code
     * pipeline.parallelism}: on the cluster the submission decides the parallelism ({@code pipeline.parallelism} at
     * first, then what {@code fleet cluster rescale} asked for).
     */
    private List<Component> clusterPipeline(Set<String> jobManagerDependencies, Set<String> jobDependencies) {
        FlinkClusterSettings cluster = FlinkClusterSettings.from(settings.configuration());
        FlinkClusterComponents.JobSubmission job = new FlinkClusterComponents.JobSubmission(
                PIPELINE,
                jobDependencies,
                () -> List.of(
                        "--config",
                        javaComponents
                                .writeConfigurationOf(
                                        PIPELINE,
                                        Set.of(
                                                "pipeline.checkpoint-dir",
                                                "pipeline.handover-dir",
                                                "pipeline.rest-host",
                                                "pipeline.rest-port",
                                                PIPELINE_PARALLELISM))
                                .toString()),
                settings.configuration().integer(PIPELINE_PARALLELISM, DEFAULT_PIPELINE_PARALLELISM));
        return new FlinkClusterComponents(settings, home, cluster).components(jobManagerDependencies, job);
    }

    /**
     * The pipeline on a Flink session cluster as a stack of its own, for a stack whose other components already run
     * with the same settings and whose own pipeline is stopped: the cluster test swaps the pipeline of a running stack
     * for the cluster this way. Its supervision statuses are not written to the stack's status file.
     */
    public static EmbeddedStack pipelineCluster(StackSettings settings, FleetHome home) {
        FleetStack stack = new FleetStack(settings, home, new EmbeddedServers(settings, home));
        // Builds the components once, so that the pipeline's configuration is known.
        stack.components();
        return new EmbeddedStack(
                stack.clusterPipeline(Set.of(), Set.of()),
                Set.of(),
                Optional.empty(),
                settings.startTimeout(),
                SupervisionPolicy.from(settings.configuration()),
                statuses -> {});
    }

    private List<NewTopic> topics() {
        List<NewTopic> topics = new ArrayList<>();
        for (String name : List.of(
                Topics.RAW_POSITIONS, Topics.VALIDATED_POSITIONS, Topics.DLQ_POSITIONS, Topics.LATE_POSITIONS)) {
            topics.add(new NewTopic(name, settings.kafkaPartitions(), REPLICATION_FACTOR));
        }
        // The reprocessing ledger only needs the latest entry per dead-lettered record.
        topics.add(new NewTopic(Topics.DLQ_REPROCESSED, 1, REPLICATION_FACTOR)
                .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
        return topics;
    }

    private static Set<String> union(Set<String> first, Set<String> second) {
        Set<String> union = new HashSet<>(first);
        union.addAll(second);
        return union;
    }
}
