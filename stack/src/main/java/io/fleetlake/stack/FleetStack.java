package io.fleetlake.stack;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Topics;
import io.fleetlake.stack.component.Component;
import io.fleetlake.stack.component.HealthProbes;
import io.fleetlake.stack.component.KafkaTopicsTask;
import io.fleetlake.stack.component.ProcessComponent;
import io.fleetlake.stack.component.RedisServerCommand;
import io.fleetlake.stack.component.TrinoComponent;
import io.fleetlake.stack.process.FleetHome;
import io.fleetlake.stack.process.JavaCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

/**
 * The fleet's embedded stack: which components exist, what each depends on, how each is configured and how its health
 * is probed. Every server binds to {@link StackSettings#host()} and keeps its data under the stack's data directory.
 */
public final class FleetStack {
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

    /** Name the ingest worker registers the MQTT source connector under. */
    public static final String CONNECTOR_NAME = "mqtt-positions";

    private static final short REPLICATION_FACTOR = 1;

    private final StackSettings settings;
    private final FleetHome home;

    private FleetStack(StackSettings settings, FleetHome home) {
        this.settings = requireNonNull(settings, "settings is null");
        this.home = requireNonNull(home, "home is null");
    }

    public static EmbeddedStack create(StackSettings settings, FleetHome home) {
        return new EmbeddedStack(new FleetStack(settings, home).components(), settings.startTimeout());
    }

    private List<Component> components() {
        String host = settings.host();
        List<Component> components = new ArrayList<>();
        components.add(javaComponent(
                KAFKA,
                Set.of(),
                new Module("servers/kafka-broker", "server-kafka-broker", "io.fleetlake.servers.kafka.KafkaBrokerMain"),
                List.of("-Xmx768m"),
                Map.of(
                        "kafka.host", host,
                        "kafka.port", port(StackPort.KAFKA),
                        "kafka.controller-port", port(StackPort.KAFKA_CONTROLLER),
                        "kafka.data-dir", directory(KAFKA)),
                HealthProbes.kafka(settings.kafkaBootstrapServers()),
                "PLAINTEXT://" + settings.kafkaBootstrapServers()));
        components.add(new KafkaTopicsTask(settings.kafkaBootstrapServers(), topics(), Set.of(KAFKA)));
        components.add(javaComponent(
                S3,
                Set.of(),
                new Module("servers/s3-server", "server-s3", "io.fleetlake.servers.s3.S3ServerMain"),
                List.of("-Xmx256m"),
                Map.of(
                        "s3.host", host,
                        "s3.port", port(StackPort.S3),
                        "s3.data-dir", directory(S3),
                        "s3.access-key", settings.s3AccessKey(),
                        "s3.secret-key", settings.s3SecretKey(),
                        "s3.region", settings.s3Region(),
                        "s3.buckets", settings.warehouseBucket()),
                HealthProbes.http(URI.create(settings.s3Endpoint() + "/healthz"), body -> true),
                settings.s3Endpoint()));
        components.add(javaComponent(
                MQTT,
                Set.of(),
                new Module("servers/mqtt-broker", "server-mqtt-broker", "io.fleetlake.servers.mqtt.MqttBrokerMain"),
                List.of("-Xmx384m"),
                Map.of("mqtt.host", host, "mqtt.port", port(StackPort.MQTT), "mqtt.data-dir", directory(MQTT)),
                HealthProbes.tcp(host, settings.port(StackPort.MQTT)),
                settings.mqttUri()));
        components.add(new ProcessComponent(
                REDIS,
                Set.of(),
                () -> new RedisServerCommand(
                                settings.redisExecutable(),
                                host,
                                settings.port(StackPort.REDIS),
                                settings.componentDirectory(REDIS),
                                settings.redisUsername(),
                                settings.redisPassword())
                        .toCommandLine(),
                settings.componentDirectory(REDIS),
                Map.of(),
                settings.logFile(REDIS),
                HealthProbes.redis(URI.create(settings.redisUri())),
                settings.redisEndpoint()));
        components.add(javaComponent(
                CATALOG,
                Set.of(S3),
                new Module("iceberg-catalog", "iceberg-catalog", "io.fleetlake.catalog.RestCatalogServerMain"),
                List.of("-Xmx384m"),
                Map.of(
                        "catalog.host", host,
                        "catalog.port", port(StackPort.CATALOG),
                        "catalog.data-dir", directory(CATALOG),
                        "catalog.warehouse", settings.warehouse(),
                        "catalog.s3-endpoint", settings.s3Endpoint(),
                        "catalog.s3-access-key", settings.s3AccessKey(),
                        "catalog.s3-secret-key", settings.s3SecretKey(),
                        "catalog.s3-region", settings.s3Region()),
                HealthProbes.http(URI.create(settings.catalogUri() + "/v1/config"), body -> true),
                settings.catalogUri()));
        String connectUri = "http://" + host + ":" + settings.port(StackPort.CONNECT);
        components.add(javaComponent(
                CONNECT,
                Set.of(KAFKA_TOPICS, MQTT),
                new Module("ingest-connect", "ingest-connect", "io.fleetlake.ingest.ConnectWorkerMain"),
                List.of("-Xmx512m"),
                Map.of(
                        "connect.host", host,
                        "connect.port", port(StackPort.CONNECT),
                        "connect.bootstrap-servers", settings.kafkaBootstrapServers(),
                        "connect.connector-name", CONNECTOR_NAME,
                        "mqtt.server-uri", settings.mqttUri()),
                // The status endpoint can still report the previous process's RUNNING right after a restart; the
                // worker logs its ready line only once its own task is subscribed.
                HealthProbes.logContains(settings.logFile(CONNECT), "Connect worker ready on"),
                connectUri));
        components.add(javaComponent(
                PLANNING,
                Set.of(),
                // The planning API serves the routes of the simulated fleet: same seed, size and stop duration.
                new Module("simulator", "simulator", "io.fleetlake.simulator.PlanningApiMain", List.of("simulator")),
                List.of("-Xmx256m"),
                Map.of("planning.host", host, "planning.port", port(StackPort.PLANNING)),
                HealthProbes.http(URI.create(settings.planningUri() + "/healthz"), body -> true),
                settings.planningUri()));
        String flinkUri = settings.flinkRestUri();
        components.add(javaComponent(
                PIPELINE,
                Set.of(KAFKA_TOPICS, CATALOG, REDIS, PLANNING),
                new Module(
                        "flink-jobs",
                        "flink-jobs",
                        "io.fleetlake.flink.FleetPipelineMain",
                        List.of("validation", "enrichment")),
                List.of("-Xmx1g"),
                Map.ofEntries(
                        Map.entry("pipeline.kafka-bootstrap-servers", settings.kafkaBootstrapServers()),
                        Map.entry("pipeline.catalog-uri", settings.catalogUri()),
                        Map.entry("pipeline.warehouse", settings.warehouse()),
                        Map.entry("pipeline.s3-endpoint", settings.s3Endpoint()),
                        Map.entry("pipeline.s3-access-key", settings.s3AccessKey()),
                        Map.entry("pipeline.s3-secret-key", settings.s3SecretKey()),
                        Map.entry("pipeline.s3-region", settings.s3Region()),
                        Map.entry("pipeline.redis-uri", settings.redisUri()),
                        Map.entry("pipeline.planning-uri", settings.planningUri()),
                        Map.entry("pipeline.checkpoint-dir", directory(PIPELINE) + "/checkpoints"),
                        Map.entry("pipeline.rest-host", host),
                        Map.entry("pipeline.rest-port", port(StackPort.FLINK))),
                HealthProbes.http(URI.create(flinkUri + "/jobs/overview"), body -> body.contains("\"RUNNING\"")),
                flinkUri));
        components.add(new TrinoComponent(TRINO, Set.of(CATALOG, S3), trinoConfiguration(), settings.trinoJdbcUrl()));
        components.add(javaComponent(
                DASHBOARD,
                Set.of(REDIS, TRINO),
                new Module("dashboard", "dashboard", "io.fleetlake.dashboard.DashboardMain"),
                List.of("-Xmx256m"),
                Map.of(
                        "dashboard.host", host,
                        "dashboard.port", port(StackPort.DASHBOARD),
                        "dashboard.redis-uri", settings.redisUri(),
                        "dashboard.trino-jdbc-url", settings.trinoJdbcUrl(),
                        "dashboard.flink-rest-uri", flinkUri),
                HealthProbes.http(URI.create(settings.dashboardUri() + "/healthz"), body -> true),
                settings.dashboardUri()));
        return components;
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

    private Map<String, String> trinoConfiguration() {
        Map<String, String> configuration = new TreeMap<>(Map.of(
                "trino.host", settings.host(),
                "trino.port", port(StackPort.TRINO),
                "trino.data-dir", directory(TRINO),
                "trino.server-dir",
                        home.module("trino").resolve("target/trino-server").toString(),
                "trino.catalog-uri", settings.catalogUri(),
                "trino.warehouse", settings.warehouse(),
                "trino.s3-endpoint", settings.s3Endpoint(),
                "trino.s3-access-key", settings.s3AccessKey(),
                "trino.s3-secret-key", settings.s3SecretKey(),
                "trino.s3-region", settings.s3Region()));
        configuration.putAll(userKeys("trino"));
        return configuration;
    }

    private Component javaComponent(
            String name,
            Set<String> dependencies,
            Module module,
            List<String> jvmOptions,
            Map<String, String> stackKeys,
            BooleanSupplier healthProbe,
            String endpoint) {
        Path configFile = settings.dataDirectory().resolve("conf").resolve(name + ".properties");
        Map<String, String> configuration = new TreeMap<>(stackKeys);
        Stream.concat(
                        stackKeys.keySet().stream().map(key -> key.substring(0, key.indexOf('.'))),
                        module.extraPrefixes().stream())
                .distinct()
                .forEach(prefix -> configuration.putAll(userKeys(prefix)));
        return new ProcessComponent(
                name,
                dependencies,
                () -> {
                    writeConfiguration(configFile, configuration);
                    List<String> options = new ArrayList<>(jvmOptions);
                    options.addAll(home.launchJvmOptions(module.directory()));
                    options.addAll(settings.jvmOptions(name));
                    return new JavaCommand(
                                    JavaCommand.currentJavaHome(),
                                    options,
                                    home.launchClasspath(module.directory(), module.artifactId()),
                                    module.mainClass(),
                                    List.of("--config", configFile.toString()))
                            .toCommandLine();
                },
                settings.componentDirectory(name),
                Map.of(),
                settings.logFile(name),
                healthProbe,
                endpoint);
    }

    /** Keys of one component prefix set in the stack's configuration, so users can tune any component. */
    private Map<String, String> userKeys(String prefix) {
        Map<String, String> keys = new LinkedHashMap<>();
        settings.configuration().withPrefix(prefix + ".").forEach((key, value) -> keys.put(prefix + "." + key, value));
        return keys;
    }

    private String port(StackPort port) {
        return Integer.toString(settings.port(port));
    }

    private String directory(String component) {
        return settings.componentDirectory(component).toString();
    }

    private static void writeConfiguration(Path file, Map<String, String> configuration) {
        try {
            Files.createDirectories(file.getParent());
            if (!Files.exists(file)) {
                Files.createFile(
                        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            try (Writer writer = Files.newBufferedWriter(file)) {
                writer.write(
                        "# Written by the embedded stack at every start; set keys in the stack's configuration.\n");
                for (Map.Entry<String, String> entry : configuration.entrySet()) {
                    writer.write(entry.getKey() + "=" + escape(entry.getValue()) + "\n");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }

    private static String escape(String value) {
        return value.replace("\\", "\\\\");
    }

    /**
     * @param extraPrefixes configuration prefixes the component reads besides those of its stack keys, for example the
     *     pipeline's {@code validation.*} rules
     */
    private record Module(String directory, String artifactId, String mainClass, List<String> extraPrefixes) {
        Module(String directory, String artifactId, String mainClass) {
            this(directory, artifactId, mainClass, List.of());
        }
    }
}
