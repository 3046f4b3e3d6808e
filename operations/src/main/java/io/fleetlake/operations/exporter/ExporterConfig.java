package io.fleetlake.operations.exporter;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.config.KafkaSaslCredentials;
import io.fleetlake.connect.client.BasicCredentials;
import io.fleetlake.connect.client.ConnectRestPrincipals;
import io.fleetlake.flink.rest.FlinkRestClient;
import io.fleetlake.flink.rest.FlinkRestTls;
import io.fleetlake.model.catalog.CatalogCredential;
import io.fleetlake.operations.health.HealthProbes;
import io.fleetlake.operations.health.HealthSources;
import io.fleetlake.operations.health.HealthThresholds;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Configuration of fleet-exporter, keys {@code exporter.*} (thresholds of its {@code /health} report: {@code health.*},
 * see {@link HealthThresholds}). Every server it reads is named by a key, so the same exporter serves the embedded stack
 * and the compose deployment. Defaults pinned by {@code ExporterConfigTest}.
 */
public final class ExporterConfig {
    public static final String HOST = "exporter.host";
    public static final String PORT = "exporter.port";
    public static final String INTERVAL = "exporter.interval";
    public static final String KAFKA_BOOTSTRAP_SERVERS = "exporter.kafka-bootstrap-servers";
    /**
     * The component of the exporter's Kafka login ({@link KafkaSaslCredentials}): {@code exporter.kafka-username},
     * {@code exporter.kafka-password}; without them its clients connect without authentication.
     */
    public static final String KAFKA_CREDENTIALS_COMPONENT = "exporter";

    public static final String CONSUMER_GROUPS = "exporter.consumer-groups";
    public static final String REDIS_URI = "exporter.redis-uri";
    public static final String CATALOG_URI = "exporter.catalog-uri";
    public static final String CATALOG_CREDENTIAL = "exporter.catalog-credential";
    public static final String CONNECT_URI = "exporter.connect-uri";
    /** The password of the Connect worker's read-only {@code monitor} principal; anonymous when not set. */
    public static final String CONNECT_PASSWORD = "exporter.connect-password";

    public static final String CONNECTOR_NAME = "exporter.connector-name";
    public static final String FLINK_REST_URI = "exporter.flink-rest-uri";
    /**
     * Prefix of the client certificate options of a Flink REST API with mutual TLS ({@code
     * exporter.flink-rest-key-store}, {@code -trust-store}, {@code -store-password}; {@link FlinkRestTls}).
     */
    public static final String PREFIX = "exporter.";

    public static final String MAINTENANCE_METRICS_URI = "exporter.maintenance-metrics-uri";
    public static final String MQTT_METRICS_URI = "exporter.mqtt-metrics-uri";
    public static final String PROBES = "exporter.probes";

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 9400;
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);
    public static final String DEFAULT_CONSUMER_GROUP = "fleet-pipeline";
    public static final String DEFAULT_CONNECTOR_NAME = "mqtt-positions";

    private final String host;
    private final int port;
    private final Duration interval;
    private final HealthSources sources;
    private final Map<String, URI> probeUris;
    private final HealthThresholds thresholds;

    private ExporterConfig(ConfigSource source) {
        this.host = source.string(HOST, DEFAULT_HOST);
        this.port = source.port(PORT, DEFAULT_PORT);
        this.interval = source.duration(INTERVAL, DEFAULT_INTERVAL);
        if (interval.isZero() || interval.isNegative()) {
            throw new ConfigException(INTERVAL + " must be positive, got " + interval);
        }
        this.probeUris = probes(source.string(PROBES, ""));
        Map<String, BooleanSupplier> probes = new LinkedHashMap<>();
        probeUris.forEach((name, uri) -> probes.put(name, HealthProbes.forUri(uri)));
        this.sources = new HealthSources(
                source.requiredString(KAFKA_BOOTSTRAP_SERVERS),
                KafkaSaslCredentials.from(source, KAFKA_CREDENTIALS_COMPONENT),
                list(source.string(CONSUMER_GROUPS, DEFAULT_CONSUMER_GROUP)),
                source.requiredString(REDIS_URI),
                source.requiredString(CATALOG_URI),
                source.secret(CATALOG_CREDENTIAL, value -> CatalogCredential.parse(CATALOG_CREDENTIAL, value)),
                source.requiredString(CONNECT_URI),
                source.string(CONNECT_PASSWORD)
                        .map(password -> new BasicCredentials(ConnectRestPrincipals.MONITOR, password)),
                source.string(CONNECTOR_NAME, DEFAULT_CONNECTOR_NAME),
                flinkRest(source),
                source.string(MAINTENANCE_METRICS_URI).map(present -> source.uri(MAINTENANCE_METRICS_URI, null)),
                source.string(MQTT_METRICS_URI).map(present -> source.uri(MQTT_METRICS_URI, null)),
                probes);
        this.thresholds = HealthThresholds.from(source);
    }

    private static FlinkRestClient flinkRest(ConfigSource source) {
        FlinkRestClient.Builder builder = FlinkRestClient.builder(source.requiredString(FLINK_REST_URI));
        try {
            FlinkRestTls.fromOptions(PREFIX, source::string).ifPresent(builder::tls);
            return builder.build();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }

    public static ExporterConfig from(ConfigSource source) {
        return new ExporterConfig(requireNonNull(source, "source is null"));
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    /** How often the exporter reads every source; scrapes and {@code /health} serve the latest reading. */
    public Duration interval() {
        return interval;
    }

    public HealthSources sources() {
        return sources;
    }

    public HealthThresholds thresholds() {
        return thresholds;
    }

    /** {@code exporter.probes}: {@code name=uri} pairs separated by commas, such as {@code s3=http://s3:9000/healthz}. */
    static Map<String, URI> probes(String value) {
        Map<String, URI> probes = new LinkedHashMap<>();
        for (String entry : list(value)) {
            int equals = entry.indexOf('=');
            if (equals <= 0 || equals == entry.length() - 1) {
                throw new ConfigException(PROBES + " entry '" + entry + "' is not name=uri");
            }
            URI uri;
            try {
                uri = URI.create(entry.substring(equals + 1).trim());
                HealthProbes.forUri(uri);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(PROBES + " entry '" + entry + "': " + e.getMessage());
            }
            probes.put(entry.substring(0, equals).trim(), uri);
        }
        return probes;
    }

    private static List<String> list(String value) {
        return Arrays.stream(value.split(","))
                .map(String::trim)
                .filter(item -> !item.isEmpty())
                .toList();
    }

    /** The configuration without the Redis password. */
    @Override
    public String toString() {
        return "ExporterConfig{host=" + host + ", port=" + port + ", interval=" + interval + ", kafka="
                + sources.kafkaBootstrapServers() + ", kafkaLogin="
                + sources.kafkaCredentials().map(Object::toString).orElse("anonymous") + ", groups="
                + sources.consumerGroups() + ", redis="
                + redact(sources.redisUri()) + ", catalog=" + sources.catalogUri() + ", connect="
                + sources.connectUri() + ", connectLogin="
                + sources.connectCredentials().map(BasicCredentials::toString).orElse("anonymous") + ", connector="
                + sources.connectorName() + ", flink="
                + sources.flinkRest().restUri() + ", maintenance="
                + sources.maintenanceMetricsUri().map(URI::toString).orElse("-")
                + ", mqtt=" + sources.mqttMetricsUri().map(URI::toString).orElse("-") + ", probes="
                + probeUris.entrySet().stream()
                        .map(entry ->
                                entry.getKey() + "=" + redact(entry.getValue().toString()))
                        .toList()
                + ", thresholds=" + thresholds + "}";
    }

    private static String redact(String uri) {
        URI parsed = URI.create(uri);
        return parsed.getUserInfo() == null ? uri : uri.replace(parsed.getRawUserInfo(), "***");
    }
}
