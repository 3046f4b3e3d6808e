package io.fleetlake.servers.kafka;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.apache.kafka.common.Uuid;

/**
 * Configuration of the single-node Kafka broker (KRaft combined mode: broker and controller in one process).
 *
 * @param host address both listeners bind to and the address advertised to clients; never a wildcard
 * @param port client (PLAINTEXT) listener port
 * @param controllerPort KRaft controller listener port
 * @param dataDirectory directory holding the log directory; kept across restarts
 * @param nodeId KRaft node id of this broker and controller
 * @param clusterId cluster id written when the storage is formatted (a base64 Kafka UUID)
 * @param defaultPartitions partitions of topics created without an explicit count
 * @param logRetention how long records are kept
 * @param autoCreateTopics whether producing to an unknown topic creates it
 */
public record KafkaBrokerConfig(
        String host,
        int port,
        int controllerPort,
        Path dataDirectory,
        int nodeId,
        String clusterId,
        int defaultPartitions,
        Duration logRetention,
        boolean autoCreateTopics) {
    public static final String HOST = "kafka.host";
    public static final String PORT = "kafka.port";
    public static final String CONTROLLER_PORT = "kafka.controller-port";
    public static final String DATA_DIRECTORY = "kafka.data-dir";
    public static final String NODE_ID = "kafka.node-id";
    public static final String CLUSTER_ID = "kafka.cluster-id";
    public static final String DEFAULT_PARTITIONS = "kafka.default-partitions";
    public static final String LOG_RETENTION = "kafka.log-retention";
    public static final String AUTO_CREATE_TOPICS = "kafka.auto-create-topics";

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 9092;
    public static final int DEFAULT_CONTROLLER_PORT = 9093;
    public static final int DEFAULT_NODE_ID = 1;
    /** Base64 of the 16 bytes {@code fleet-lakehouse!}: fixed so that every fresh stack formats alike. */
    public static final String DEFAULT_CLUSTER_ID = "ZmxlZXQtbGFrZWhvdXNlIQ";

    public static final int DEFAULT_PARTITION_COUNT = 2;
    public static final Duration DEFAULT_LOG_RETENTION = Duration.ofDays(7);
    public static final boolean DEFAULT_AUTO_CREATE_TOPICS = false;

    private static final Set<String> WILDCARD_ADDRESSES = Set.of("0.0.0.0", "::", "[::]");

    public KafkaBrokerConfig {
        requireNonNull(host, "host is null");
        requireNonNull(dataDirectory, "dataDirectory is null");
        requireNonNull(clusterId, "clusterId is null");
        requireNonNull(logRetention, "logRetention is null");
        if (host.isBlank() || WILDCARD_ADDRESSES.contains(host)) {
            throw new ConfigException(HOST + " = '" + host + "' is not usable: the broker advertises this address to"
                    + " clients, so set a concrete address such as 127.0.0.1 or the machine's host name");
        }
        requireFixedPort(PORT, port);
        requireFixedPort(CONTROLLER_PORT, controllerPort);
        if (port == controllerPort) {
            throw new ConfigException(PORT + " and " + CONTROLLER_PORT + " are both " + port
                    + ": the client and controller listeners need different ports");
        }
        if (nodeId < 0) {
            throw new ConfigException(NODE_ID + " = " + nodeId + " is negative: use 0 or a positive integer");
        }
        requireValidClusterId(clusterId);
        if (defaultPartitions < 1) {
            throw new ConfigException(
                    DEFAULT_PARTITIONS + " = " + defaultPartitions + " must be at least 1 partition per topic");
        }
        if (logRetention.isNegative() || logRetention.isZero()) {
            throw new ConfigException(LOG_RETENTION + " = " + logRetention + " must be a positive duration such as 7d");
        }
    }

    /** Reads the {@code kafka.*} keys; {@value #DATA_DIRECTORY} is required. */
    public static KafkaBrokerConfig from(ConfigSource source) {
        requireNonNull(source, "source is null");
        return new KafkaBrokerConfig(
                source.string(HOST, DEFAULT_HOST),
                source.port(PORT, DEFAULT_PORT),
                source.port(CONTROLLER_PORT, DEFAULT_CONTROLLER_PORT),
                Path.of(source.requiredString(DATA_DIRECTORY)),
                source.integer(NODE_ID, DEFAULT_NODE_ID),
                source.string(CLUSTER_ID, DEFAULT_CLUSTER_ID),
                source.integer(DEFAULT_PARTITIONS, DEFAULT_PARTITION_COUNT),
                source.duration(LOG_RETENTION, DEFAULT_LOG_RETENTION),
                source.bool(AUTO_CREATE_TOPICS, DEFAULT_AUTO_CREATE_TOPICS));
    }

    /** The value clients put in {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return host + ":" + port;
    }

    /** The single Kafka log directory; it also holds the KRaft metadata log. */
    public Path logDirectory() {
        return dataDirectory.resolve("logs");
    }

    private static void requireFixedPort(String key, int port) {
        // The controller quorum and the advertised listener name the port up front, so "any free port" cannot work.
        if (port < 1 || port > 65535) {
            throw new ConfigException(key + " = " + port + " must be a fixed port between 1 and 65535");
        }
    }

    private static void requireValidClusterId(String clusterId) {
        Uuid uuid;
        try {
            uuid = Uuid.fromString(clusterId);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(
                    CLUSTER_ID + " = '" + clusterId + "' is not a Kafka cluster id: use 22 base64url characters"
                            + " (16 bytes), for example the output of 'kafka-storage.sh random-uuid'",
                    e);
        }
        if (Uuid.RESERVED.contains(uuid)) {
            throw new ConfigException(CLUSTER_ID + " = '" + clusterId + "' is reserved by Kafka: choose another id");
        }
    }
}
