package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.config.KafkaSaslCredentials;
import io.fleetlake.connect.client.BasicCredentials;
import io.fleetlake.connect.client.ConnectRestPrincipals;
import io.fleetlake.connect.client.DistributedWorkerProperties;
import io.fleetlake.identity.PasswordHash;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.kafka.connect.converters.ByteArrayConverter;
import org.apache.kafka.connect.storage.StringConverter;

/**
 * Configuration of the Connect worker process: where Kafka is, where the REST API listens, and the connector it
 * registers. The connector's own keys ({@code mqtt.*}, {@code kafka.topic}; see {@link MqttSourceConfig}) are read
 * from the same sources and passed through after validation.
 *
 * @param host address the REST API binds to and advertises
 * @param port REST port; 0 picks a free one
 * @param bootstrapServers Kafka bootstrap servers
 * @param groupId Connect group id; also prefixes the internal topics
 * @param connectorName name the connector is registered under
 * @param tasks number of connector tasks ({@code tasks.max})
 * @param startupTimeout how long {@link ConnectWorker#start()} waits for Kafka, the registration and RUNNING
 * @param healthMaxPendingAge how long a message may wait for Kafka before the health check fails; the supervisor
 *     restarts a task whose oldest message waited twice as long
 * @param supervisionInterval how often the supervisor checks the connector and its tasks
 * @param compressionType the producer's {@code compression.type} for the raw records and dead letters
 * @param connectorSettings the connector keys that were set, validated; {@code mqtt.password} is a config provider
 *     reference ({@code ${file:<path>:<key>}} or {@code ${env:<variable>}}), never the password itself
 * @param restAdminPassword the password of the REST API's {@value ConnectRestPrincipals#ADMIN} principal
 * @param restMonitorPassword the password of the REST API's {@value ConnectRestPrincipals#MONITOR} principal
 * @param restMaxRequestBytes the largest request body the REST API accepts from a logged-in principal; a larger one
 *     is 413
 * @param restMaxConcurrentRequests requests the REST API serves at once; one more is 503 at once
 * @param kafkaCredentials the worker's SASL/SCRAM login to Kafka (keys {@code connect.kafka-username},
 *     {@code connect.kafka-password}); empty for a broker without authentication, such as the embedded stack's
 */
public record ConnectWorkerConfig(
        String host,
        int port,
        String bootstrapServers,
        String groupId,
        String connectorName,
        int tasks,
        Duration startupTimeout,
        Duration healthMaxPendingAge,
        Duration supervisionInterval,
        String compressionType,
        Map<String, String> connectorSettings,
        String restAdminPassword,
        String restMonitorPassword,
        long restMaxRequestBytes,
        int restMaxConcurrentRequests,
        Optional<KafkaSaslCredentials> kafkaCredentials) {
    /** The component of the Kafka login's keys: {@code connect.kafka-username}, {@code connect.kafka-password}. */
    public static final String KAFKA_CREDENTIALS_COMPONENT = "connect";

    public static final String HOST = "connect.host";
    public static final String PORT = "connect.port";
    public static final String BOOTSTRAP_SERVERS = "connect.bootstrap-servers";
    public static final String GROUP_ID = "connect.group-id";
    public static final String CONNECTOR_NAME = "connect.connector-name";
    public static final String TASKS = "connect.tasks";
    public static final String STARTUP_TIMEOUT = "connect.startup-timeout";
    public static final String HEALTH_MAX_PENDING_AGE = "connect.health-max-pending-age";
    public static final String SUPERVISION_INTERVAL = "connect.supervision-interval";
    public static final String COMPRESSION_TYPE = "connect.compression-type";
    public static final String REST_ADMIN_PASSWORD = "connect.rest-admin-password";
    public static final String REST_MONITOR_PASSWORD = "connect.rest-monitor-password";
    public static final String REST_MAX_REQUEST_BYTES = "connect.rest-max-request-bytes";
    public static final String REST_MAX_CONCURRENT_REQUESTS = "connect.rest-max-concurrent-requests";

    /** The REST passwords are generated secrets (the stack's are 256 random bits); shorter ones are refused. */
    public static final int MINIMUM_REST_PASSWORD_LENGTH = 16;

    /**
     * The worker's config providers, with which {@code mqtt.password} is read: {@code ${file:<path>:<key>}} from a
     * properties file, {@code ${env:<variable>}} from the environment. Connect resolves a reference only where it
     * starts the connector and its tasks; its REST answers, its config topic and its logs keep the reference.
     */
    static final Map<String, String> CONFIG_PROVIDERS = Map.of(
            "config.providers", "file,env",
            "config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider",
            "config.providers.env.class", "org.apache.kafka.common.config.provider.EnvVarConfigProvider");

    private static final Pattern PROVIDER_REFERENCE = Pattern.compile("\\$\\{(file|env):[^}]+}");

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8083;
    public static final String DEFAULT_BOOTSTRAP_SERVERS = "127.0.0.1:9092";
    public static final String DEFAULT_GROUP_ID = "fleet-ingest";
    public static final String DEFAULT_CONNECTOR_NAME = "mqtt-positions";
    public static final int DEFAULT_TASKS = 1;
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofMinutes(2);
    /** Longer than a broker pause the worker rides through (30 s), so that a pause alone is not "unhealthy". */
    public static final Duration DEFAULT_HEALTH_MAX_PENDING_AGE = Duration.ofSeconds(60);

    public static final Duration DEFAULT_SUPERVISION_INTERVAL = Duration.ofSeconds(10);

    /**
     * None: on the loopback interface of the embedded stack compression only costs CPU (measured: see the module
     * README); a deployment whose Kafka is across a network can choose lz4 or zstd.
     */
    public static final String DEFAULT_COMPRESSION_TYPE = "none";

    /** A connector's configuration is a few KiB; 1 MiB leaves ample room and bounds what a request can make it hold. */
    public static final long DEFAULT_REST_MAX_REQUEST_BYTES = 1024 * 1024;

    /**
     * The stack's clients (the launcher, the supervisor, fleet status, the exporter) make a request or two at a time;
     * 32 at once bounds the password hashing a flood of requests can cause.
     */
    public static final int DEFAULT_REST_MAX_CONCURRENT_REQUESTS = 32;

    private static final Set<String> COMPRESSION_TYPES = Set.of("none", "gzip", "snappy", "lz4", "zstd");

    /** Offsets hold no MQTT position here; a short interval keeps shutdown quick. */
    static final String OFFSET_FLUSH_INTERVAL_MILLIS = "1000";

    /**
     * With one worker per group nobody else can take over a departed worker's tasks, so waiting for it (Connect's
     * default is 5 minutes) only leaves the connector UNASSIGNED: after a Kafka pause longer than the group session,
     * the worker rejoins as a new member and the leader in the same process held back its own former assignment.
     */
    static final String SCHEDULED_REBALANCE_MAX_DELAY_MILLIS = "0";

    /**
     * Producer settings of the connector's tasks (fixed): idempotent writes acknowledged by every in-sync replica,
     * so a retry never duplicates a record and an acknowledged record is durable; up to five requests in flight per
     * partition (ordered, thanks to idempotence) instead of Connect's default of one; batches of up to 256 KiB that wait
     * up to 10 ms to fill. Connect's own defaults stay: infinite delivery timeout and blocking, so a Kafka outage makes
     * the task wait, never drop.
     */
    static final Map<String, String> PRODUCER_SETTINGS = Map.of(
            "producer.enable.idempotence", "true",
            "producer.acks", "all",
            "producer.max.in.flight.requests.per.connection", "5",
            "producer.linger.ms", "10",
            "producer.batch.size", "262144");

    /**
     * Where a Connect worker reads the settings of its Kafka clients: top-level for its own (config, offset and status
     * topics, the group), {@code producer.} for the source tasks' producers, {@code consumer.} and {@code admin.} for
     * the consumers and admin clients it makes (offset reads, topic creation).
     */
    static final List<String> KAFKA_CLIENT_PREFIXES = List.of("", "producer.", "consumer.", "admin.");

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,200}");
    private static final String REDACTED = "[hidden]";

    public ConnectWorkerConfig {
        requireNonNull(host, "host is null");
        requireNonNull(bootstrapServers, "bootstrapServers is null");
        requireNonNull(groupId, "groupId is null");
        requireNonNull(connectorName, "connectorName is null");
        requireNonNull(startupTimeout, "startupTimeout is null");
        connectorSettings = Map.copyOf(new TreeMap<>(requireNonNull(connectorSettings, "connectorSettings is null")));
        if (host.isBlank()) {
            throw invalid(HOST, host, "an address to bind the REST API to, such as 127.0.0.1");
        }
        if (port < 0 || port > 65535) {
            throw invalid(PORT, Integer.toString(port), "a port between 0 and 65535");
        }
        if (bootstrapServers.isBlank()) {
            throw invalid(BOOTSTRAP_SERVERS, bootstrapServers, "host:port[,host:port...] of the Kafka brokers");
        }
        if (!NAME.matcher(groupId).matches()) {
            throw invalid(GROUP_ID, groupId, "letters, digits, '.', '_' or '-' (it prefixes the internal topic names)");
        }
        if (!NAME.matcher(connectorName).matches()) {
            throw invalid(CONNECTOR_NAME, connectorName, "letters, digits, '.', '_' or '-'");
        }
        if (tasks < 1) {
            throw invalid(TASKS, Integer.toString(tasks), "at least 1");
        }
        if (startupTimeout.isNegative() || startupTimeout.isZero()) {
            throw invalid(STARTUP_TIMEOUT, startupTimeout.toString(), "a positive duration such as 2m");
        }
        requireNonNull(healthMaxPendingAge, "healthMaxPendingAge is null");
        requireNonNull(supervisionInterval, "supervisionInterval is null");
        if (healthMaxPendingAge.toSeconds() < 1) {
            throw invalid(HEALTH_MAX_PENDING_AGE, healthMaxPendingAge.toString(), "at least 1s, such as 60s");
        }
        if (supervisionInterval.toMillis() < 100) {
            throw invalid(SUPERVISION_INTERVAL, supervisionInterval.toString(), "at least 100ms, such as 10s");
        }
        requireNonNull(compressionType, "compressionType is null");
        if (!COMPRESSION_TYPES.contains(compressionType)) {
            throw invalid(COMPRESSION_TYPE, compressionType, "one of none, gzip, snappy, lz4, zstd");
        }
        validateConnectorSettings(connectorSettings);
        String password = connectorSettings.get(MqttSourceConfig.PASSWORD);
        if (password != null && !PROVIDER_REFERENCE.matcher(password).matches()) {
            throw new ConfigException("Invalid configuration " + MqttSourceConfig.PASSWORD + " = '" + REDACTED
                    + "': expected a reference Connect resolves, ${file:<path of a properties file>:<key>} or"
                    + " ${env:<variable>}, not the password itself: Connect would show it in GET /connectors/"
                    + connectorName + "/config and in its log");
        }
        requireNonNull(kafkaCredentials, "kafkaCredentials is null");
        requireNonNull(restAdminPassword, "restAdminPassword is null");
        requireNonNull(restMonitorPassword, "restMonitorPassword is null");
        requirePassword(REST_ADMIN_PASSWORD, restAdminPassword);
        requirePassword(REST_MONITOR_PASSWORD, restMonitorPassword);
        if (restMaxRequestBytes < 1024) {
            throw invalid(
                    REST_MAX_REQUEST_BYTES,
                    Long.toString(restMaxRequestBytes),
                    "at least 1024 bytes, such as " + DEFAULT_REST_MAX_REQUEST_BYTES);
        }
        if (restMaxConcurrentRequests < 1) {
            throw invalid(
                    REST_MAX_CONCURRENT_REQUESTS,
                    Integer.toString(restMaxConcurrentRequests),
                    "at least 1, such as " + DEFAULT_REST_MAX_CONCURRENT_REQUESTS);
        }
        if (restAdminPassword.equals(restMonitorPassword)) {
            throw new ConfigException("Invalid configuration " + REST_MONITOR_PASSWORD + ": it equals "
                    + REST_ADMIN_PASSWORD + "; give each principal a secret of its own");
        }
    }

    /** A {@code ${file:...}} reference to the key {@code key} of the properties file {@code file}. */
    public static String fileReference(java.nio.file.Path file, String key) {
        return "${file:" + file.toAbsolutePath() + ":" + key + "}";
    }

    public static ConnectWorkerConfig from(ConfigSource source) {
        Map<String, String> connectorSettings = new LinkedHashMap<>();
        for (String key : MqttSourceConfig.configDef().names()) {
            source.string(key).ifPresent(value -> connectorSettings.put(key, value));
        }
        return new ConnectWorkerConfig(
                source.string(HOST, DEFAULT_HOST),
                source.port(PORT, DEFAULT_PORT),
                source.string(BOOTSTRAP_SERVERS, DEFAULT_BOOTSTRAP_SERVERS),
                source.string(GROUP_ID, DEFAULT_GROUP_ID),
                source.string(CONNECTOR_NAME, DEFAULT_CONNECTOR_NAME),
                source.integer(TASKS, DEFAULT_TASKS),
                source.duration(STARTUP_TIMEOUT, DEFAULT_STARTUP_TIMEOUT),
                source.duration(HEALTH_MAX_PENDING_AGE, DEFAULT_HEALTH_MAX_PENDING_AGE),
                source.duration(SUPERVISION_INTERVAL, DEFAULT_SUPERVISION_INTERVAL),
                source.string(COMPRESSION_TYPE, DEFAULT_COMPRESSION_TYPE),
                connectorSettings,
                source.string(REST_ADMIN_PASSWORD, ""),
                source.string(REST_MONITOR_PASSWORD, ""),
                source.longValue(REST_MAX_REQUEST_BYTES, DEFAULT_REST_MAX_REQUEST_BYTES),
                source.integer(REST_MAX_CONCURRENT_REQUESTS, DEFAULT_REST_MAX_CONCURRENT_REQUESTS),
                KafkaSaslCredentials.from(source, KAFKA_CREDENTIALS_COMPONENT));
    }

    /**
     * The properties of the distributed worker: REST on {@code host:port} with the {@code /ingest/health} extension,
     * internal topics named after the group with replication factor 1, plugins found through {@code META-INF/services}
     * on the class path, no exactly-once source support (see {@link MqttSourceConnector}), the producer settings of
     * {@link #PRODUCER_SETTINGS} with {@code max.request.size} = {@code connect.max-record-size}, and no delay before a
     * departed worker's tasks are assigned again; the config providers of {@link #CONFIG_PROVIDERS}; basic
     * authentication and the request limits of the REST API ({@link ConnectRestSecurityExtension}) with the salted
     * hashes of the two passwords, never the passwords; with {@link #kafkaCredentials()}, the same SASL/SCRAM login for the worker's
     * own clients (its internal topics and group: top-level keys) and for the producer, consumer and admin clients it
     * makes for connectors ({@link #KAFKA_CLIENT_PREFIXES}).
     */
    public Map<String, String> workerProperties() {
        Map<String, String> properties = new TreeMap<>(PRODUCER_SETTINGS);
        properties.putAll(CONFIG_PROVIDERS);
        properties.putAll(DistributedWorkerProperties.of(bootstrapServers, groupId, host, port));
        properties.put("key.converter", StringConverter.class.getName());
        properties.put("value.converter", ByteArrayConverter.class.getName());
        properties.put("header.converter", StringConverter.class.getName());
        properties.put("exactly.once.source.support", "disabled");
        properties.put("offset.flush.interval.ms", OFFSET_FLUSH_INTERVAL_MILLIS);
        properties.put("plugin.discovery", "service_load");
        properties.put("scheduled.rebalance.max.delay.ms", SCHEDULED_REBALANCE_MAX_DELAY_MILLIS);
        properties.put(
                "producer.max.request.size", Integer.toString(connectorConfig().maxRecordSize()));
        properties.put("producer.compression.type", compressionType);
        properties.put(
                "rest.extension.classes",
                ConnectRestSecurityExtension.class.getName() + "," + IngestHealthRestExtension.class.getName());
        SecureRandom random = new SecureRandom();
        properties.put(
                ConnectRestSecurityExtension.ADMIN_HASH,
                PasswordHash.of(restAdminPassword, random).encoded());
        properties.put(
                ConnectRestSecurityExtension.MONITOR_HASH,
                PasswordHash.of(restMonitorPassword, random).encoded());
        properties.put(ConnectRestSecurityExtension.MAX_REQUEST_BYTES, Long.toString(restMaxRequestBytes));
        properties.put(
                ConnectRestSecurityExtension.MAX_CONCURRENT_REQUESTS, Integer.toString(restMaxConcurrentRequests));
        properties.put(IngestHealthRestExtension.CONNECTOR_NAME, connectorName);
        properties.put(IngestHealthRestExtension.MAX_PENDING_AGE_MILLIS, Long.toString(healthMaxPendingAge.toMillis()));
        kafkaCredentials.ifPresent(credentials -> {
            for (String prefix : KAFKA_CLIENT_PREFIXES) {
                properties.putAll(credentials.clientProperties(prefix));
            }
        });
        return properties;
    }

    /**
     * The connector configuration registered with {@code PUT /connectors/<name>/config}: the MQTT source with string
     * keys and headers, payload bytes unchanged, the target topic created with the broker's defaults if missing,
     * producer errors tolerated and logged (the task dead-letters what Kafka refuses; see {@link MqttSourceTask}), and
     * the connector keys that were set.
     */
    public Map<String, String> connectorProperties() {
        Map<String, String> properties = new TreeMap<>(connectorSettings);
        properties.put("connector.class", MqttSourceConnector.class.getName());
        properties.put("tasks.max", Integer.toString(tasks));
        properties.put("key.converter", StringConverter.class.getName());
        properties.put("value.converter", ByteArrayConverter.class.getName());
        properties.put("header.converter", StringConverter.class.getName());
        properties.put("errors.tolerance", "all");
        properties.put("errors.log.enable", "true");
        properties.put("topic.creation.default.partitions", "-1");
        properties.put("topic.creation.default.replication.factor", "-1");
        return properties;
    }

    /** The connector keys that were set, with their defaults. */
    public MqttSourceConfig connectorConfig() {
        return new MqttSourceConfig(connectorSettings);
    }

    /** How the worker logs in to its own REST API to register and supervise its connector. */
    public BasicCredentials adminCredentials() {
        return new BasicCredentials(ConnectRestPrincipals.ADMIN, restAdminPassword);
    }

    /** The read-only principal, for status checks. */
    public BasicCredentials monitorCredentials() {
        return new BasicCredentials(ConnectRestPrincipals.MONITOR, restMonitorPassword);
    }

    @Override
    public String toString() {
        Map<String, String> shown = new TreeMap<>(connectorSettings);
        shown.computeIfPresent(MqttSourceConfig.PASSWORD, (key, value) -> REDACTED);
        return "ConnectWorkerConfig[host=" + host + ", port=" + port + ", bootstrapServers=" + bootstrapServers
                + ", groupId=" + groupId + ", connectorName=" + connectorName + ", tasks=" + tasks
                + ", startupTimeout=" + startupTimeout + ", healthMaxPendingAge=" + healthMaxPendingAge
                + ", supervisionInterval=" + supervisionInterval + ", compressionType=" + compressionType
                + ", connectorSettings=" + shown + ", restAdminPassword=" + REDACTED + ", restMonitorPassword="
                + REDACTED + ", kafkaCredentials="
                + kafkaCredentials.map(Object::toString).orElse("<none>") + "]";
    }

    private static void validateConnectorSettings(Map<String, String> settings) {
        try {
            new MqttSourceConfig(settings);
        } catch (org.apache.kafka.common.config.ConfigException e) {
            throw new ConfigException("Invalid connector configuration: " + e.getMessage() + ". Set the key in the"
                    + " configuration file, as a FLEET_* environment variable (mqtt.server-uri is"
                    + " FLEET_MQTT_SERVER_URI) or with --set key=value");
        }
    }

    private static void requirePassword(String key, String password) {
        if (password.length() < MINIMUM_REST_PASSWORD_LENGTH) {
            throw new ConfigException("Invalid configuration " + key + ": "
                    + (password.isEmpty() ? "not set" : "shorter than " + MINIMUM_REST_PASSWORD_LENGTH + " characters")
                    + "; the REST API refuses anonymous requests, so set a generated secret (at least "
                    + MINIMUM_REST_PASSWORD_LENGTH + " characters) in the configuration file or as "
                    + ConfigSource.environmentName(key) + "; the embedded stack generates one per data folder");
        }
    }

    private static ConfigException invalid(String key, String value, String expected) {
        return new ConfigException("Invalid configuration " + key + " = '" + value + "': expected " + expected
                + " (set it in the configuration file, as " + ConfigSource.environmentName(key) + " or with --set)");
    }
}
