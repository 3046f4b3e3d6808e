package io.fleetlake.stack;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.health.HealthProbes;
import io.fleetlake.redis.RedisRole;
import io.fleetlake.stack.JavaComponents.Module;
import io.fleetlake.stack.cluster.FlinkClusterSettings;
import io.fleetlake.stack.component.Component;
import io.fleetlake.stack.component.ProcessComponent;
import io.fleetlake.stack.component.RedisServerCommand;
import io.fleetlake.stack.component.TrinoComponent;
import io.fleetlake.stack.identity.StackCatalogIdentity;
import io.fleetlake.stack.metrics.JmxExporterAgent;
import io.fleetlake.stack.process.FleetHome;
import io.fleetlake.trino.EmbeddedTrinoSecrets;
import io.fleetlake.trino.TrinoConfig;
import io.fleetlake.trino.TrinoSecurity;
import io.fleetlake.trino.TrinoServer;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The default servers: each one a process on this machine, started from Maven artifacts (Kafka, S3Proxy, HiveMQ,
 * Trino) or the redis-server bundled with embedded-redis, bound to {@link StackSettings#host()} and keeping its data
 * under the stack's data directory. The catalog keeps its SQLite file.
 */
public final class EmbeddedServers implements StackServers {
    private final StackSettings settings;
    private final FleetHome home;
    private final JavaComponents javaComponents;

    public EmbeddedServers(StackSettings settings, FleetHome home) {
        this.settings = requireNonNull(settings, "settings is null");
        this.home = requireNonNull(home, "home is null");
        this.javaComponents = new JavaComponents(settings, home);
    }

    @Override
    public List<Component> components() {
        String host = settings.host();
        return List.of(
                javaComponents.component(
                        FleetStack.KAFKA,
                        Set.of(),
                        new Module(
                                "servers/kafka-broker",
                                "server-kafka-broker",
                                "io.fleetlake.servers.kafka.KafkaBrokerMain"),
                        jvmOptions(
                                List.of("-Xmx768m"),
                                new JmxExporterAgent(home)
                                        .jvmOptions(
                                                FleetStack.KAFKA,
                                                host,
                                                settings.port(StackPort.KAFKA_METRICS),
                                                "kafka-broker.yml")),
                        Map.of(
                                "kafka.host", host,
                                "kafka.port", javaComponents.port(StackPort.KAFKA),
                                "kafka.controller-port", javaComponents.port(StackPort.KAFKA_CONTROLLER),
                                "kafka.data-dir", javaComponents.directory(FleetStack.KAFKA)),
                        HealthProbes.kafka(settings.kafkaBootstrapServers()),
                        "PLAINTEXT://" + settings.kafkaBootstrapServers(),
                        settings.port(StackPort.KAFKA),
                        settings.port(StackPort.KAFKA_CONTROLLER)),
                javaComponents.component(
                        FleetStack.S3,
                        Set.of(),
                        new Module("servers/s3-server", "server-s3", "io.fleetlake.servers.s3.S3ServerMain"),
                        List.of("-Xmx256m"),
                        Map.of(
                                "s3.host", host,
                                "s3.port", javaComponents.port(StackPort.S3),
                                "s3.data-dir", javaComponents.directory(FleetStack.S3),
                                "s3.access-key", settings.s3AccessKey(),
                                "s3.secret-key", settings.s3SecretKey(),
                                "s3.region", settings.s3Region(),
                                "s3.buckets", settings.warehouseBucket() + "," + FlinkClusterSettings.BUCKET),
                        HealthProbes.http(URI.create(settings.s3Endpoint() + "/healthz"), body -> true),
                        settings.s3Endpoint(),
                        settings.port(StackPort.S3)),
                javaComponents.component(
                        FleetStack.MQTT,
                        Set.of(),
                        new Module(
                                "servers/mqtt-broker",
                                "server-mqtt-broker",
                                "io.fleetlake.servers.mqtt.MqttBrokerMain"),
                        jvmOptions(
                                List.of("-Xmx384m"),
                                new JmxExporterAgent(home)
                                        .jvmOptions(
                                                FleetStack.MQTT,
                                                host,
                                                settings.port(StackPort.MQTT_METRICS),
                                                "mqtt-broker.yml")),
                        Map.of(
                                "mqtt.host",
                                host,
                                "mqtt.port",
                                javaComponents.port(StackPort.MQTT),
                                "mqtt.tls-port",
                                javaComponents.port(StackPort.MQTT_TLS),
                                "mqtt.data-dir",
                                javaComponents.directory(FleetStack.MQTT)),
                        HealthProbes.tcp(host, settings.port(StackPort.MQTT)),
                        settings.mqttUri(),
                        settings.port(StackPort.MQTT)),
                ProcessComponent.builder(FleetStack.REDIS)
                        .command(() -> new RedisServerCommand(
                                        settings.redisExecutable(),
                                        host,
                                        settings.port(StackPort.REDIS),
                                        settings.componentDirectory(FleetStack.REDIS),
                                        settings.redisAcl(),
                                        settings.redisMaxMemory())
                                .toCommandLine())
                        .workingDirectory(settings.componentDirectory(FleetStack.REDIS))
                        .logFile(settings.logFile(FleetStack.REDIS))
                        .healthProbe(HealthProbes.redis(URI.create(settings.redisUri(RedisRole.MONITOR))))
                        .listensOn(settings.port(StackPort.REDIS))
                        .endpoint(settings.redisEndpoint())
                        .build(),
                new TrinoComponent(
                        FleetStack.TRINO,
                        Set.of(FleetStack.CATALOG, FleetStack.S3),
                        trinoConfiguration(),
                        settings.trinoJdbcUrl()));
    }

    private static List<String> jvmOptions(List<String> heap, List<String> agent) {
        List<String> options = new java.util.ArrayList<>(heap);
        options.addAll(agent);
        return options;
    }

    @Override
    public CatalogDatabase catalogDatabase() {
        return CatalogDatabase.sqliteFile();
    }

    private Map<String, String> trinoConfiguration() {
        Map<String, String> configuration = new TreeMap<>(Map.of(
                "trino.host", settings.host(),
                "trino.port", javaComponents.port(StackPort.TRINO),
                "trino.data-dir", javaComponents.directory(FleetStack.TRINO),
                "trino.server-dir",
                        home.module("trino").resolve("target/trino-server").toString(),
                "trino.catalog-uri", settings.catalogUri(),
                "trino.warehouse", settings.warehouse(),
                "trino.s3-endpoint", settings.s3Endpoint(),
                "trino.s3-access-key", settings.s3AccessKey(),
                "trino.s3-secret-key", settings.s3SecretKey(),
                "trino.s3-region", settings.s3Region()));
        // Two catalogs on the same warehouse: iceberg with a reader's credential, which every user reads through, and
        // iceberg_admin with the maintainer's, which only admin may use (rules.json); so even a flaw in Trino's access
        // control cannot make a reader's query write. The catalog still refuses Trino a drop or purge.
        StackCatalogIdentity catalogIdentity = StackCatalogIdentity.of(settings).ensure();
        configuration.put(
                TrinoConfig.CATALOG_CREDENTIAL,
                catalogIdentity.credential(CatalogRole.READER).value());
        configuration.put(
                TrinoSecurity.ADMIN_CATALOG_CREDENTIAL,
                catalogIdentity.credential(CatalogRole.MAINTAINER).value());
        EmbeddedTrinoSecrets trinoSecrets = settings.trinoSecrets();
        // Made here, before any component starts, rather than by Trino's first start: Prometheus reads this CA once
        // when it starts, and so need not wait for Trino (a Trino that cannot start leaves the stack its alerts).
        TrinoServer.ensureCertificate(trinoSecrets.tlsDirectory(), settings.hostAddress());
        configuration.put(TrinoSecurity.HTTPS_PORT, javaComponents.port(StackPort.TRINO_HTTPS));
        configuration.put(
                TrinoSecurity.TLS_DIRECTORY, trinoSecrets.tlsDirectory().toString());
        configuration.put(TrinoSecurity.SHARED_SECRET, trinoSecrets.sharedSecret());
        for (TrinoUser user : TrinoUser.values()) {
            configuration.put(TrinoSecurity.PASSWORD_PREFIX + user.userName(), trinoSecrets.password(user));
        }
        configuration.putAll(javaComponents.userKeys("trino"));
        return configuration;
    }
}
