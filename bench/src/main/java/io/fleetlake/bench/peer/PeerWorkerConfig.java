package io.fleetlake.bench.peer;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.connect.client.DistributedWorkerProperties;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Configuration of the peer's Kafka Connect worker ({@code peer.*} keys): a distributed worker of its own group next
 * to the stack's ingest worker, for the Iceberg Kafka Connect sink.
 *
 * @param host address the REST API binds to
 * @param port REST port
 * @param bootstrapServers Kafka
 * @param groupId the worker's group; internal topics {@code <group>-configs}, {@code -offsets}, {@code -status}
 * @param offsetFlushInterval how often the worker flushes offsets; the sink's final commits wait for it (with
 *     Connect's 60 s default they stall for a minute)
 */
public record PeerWorkerConfig(
        String host, int port, String bootstrapServers, String groupId, Duration offsetFlushInterval) {
    public static final String HOST = "peer.host";
    public static final String PORT = "peer.port";
    public static final String BOOTSTRAP_SERVERS = "peer.bootstrap-servers";
    public static final String GROUP_ID = "peer.group-id";
    public static final String OFFSET_FLUSH_INTERVAL = "peer.offset-flush-interval";

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8084;
    public static final String DEFAULT_BOOTSTRAP_SERVERS = "127.0.0.1:9092";
    public static final String DEFAULT_GROUP_ID = "fleet-bench-peer";
    public static final Duration DEFAULT_OFFSET_FLUSH_INTERVAL = Duration.ofSeconds(1);

    public PeerWorkerConfig {
        requireNonNull(host, "host is null");
        requireNonNull(bootstrapServers, "bootstrapServers is null");
        requireNonNull(groupId, "groupId is null");
        requireNonNull(offsetFlushInterval, "offsetFlushInterval is null");
        if (port < 1 || port > 65535) {
            throw new ConfigException(PORT + " must be a port between 1 and 65535, got " + port);
        }
        if (groupId.isBlank()) {
            throw new ConfigException(
                    GROUP_ID + " must name the worker's Connect group, for example " + DEFAULT_GROUP_ID);
        }
        if (offsetFlushInterval.toMillis() < 100) {
            throw new ConfigException(OFFSET_FLUSH_INTERVAL + " must be at least 100ms, got " + offsetFlushInterval);
        }
    }

    public static PeerWorkerConfig from(ConfigSource source) {
        return new PeerWorkerConfig(
                source.string(HOST, DEFAULT_HOST),
                source.port(PORT, DEFAULT_PORT),
                source.string(BOOTSTRAP_SERVERS, DEFAULT_BOOTSTRAP_SERVERS),
                source.string(GROUP_ID, DEFAULT_GROUP_ID),
                source.duration(OFFSET_FLUSH_INTERVAL, DEFAULT_OFFSET_FLUSH_INTERVAL));
    }

    /** The exact properties handed to Kafka Connect. */
    public Map<String, String> workerProperties() {
        Map<String, String> properties =
                new LinkedHashMap<>(DistributedWorkerProperties.of(bootstrapServers, groupId, host, port));
        properties.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
        properties.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        properties.put("value.converter.schemas.enable", "false");
        properties.put("offset.flush.interval.ms", Long.toString(offsetFlushInterval.toMillis()));
        properties.put("plugin.discovery", "service_load");
        return properties;
    }
}
