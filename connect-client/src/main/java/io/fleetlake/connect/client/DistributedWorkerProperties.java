package io.fleetlake.connect.client;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The properties every Kafka Connect distributed worker of the stack shares: its brokers and group, its REST listener,
 * and its three internal topics named after the group with replication factor 1 (the stack runs one broker). The
 * ingest worker and the bench's peer worker add their converters and tuning to these.
 */
public final class DistributedWorkerProperties {
    private DistributedWorkerProperties() {}

    /**
     * The shared properties, in a fixed order.
     *
     * @param groupId the worker's Connect group; also the prefix of its internal topics
     */
    public static Map<String, String> of(String bootstrapServers, String groupId, String host, int port) {
        requireNonNull(bootstrapServers, "bootstrapServers is null");
        requireNonNull(groupId, "groupId is null");
        requireNonNull(host, "host is null");
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("bootstrap.servers", bootstrapServers);
        properties.put("group.id", groupId);
        properties.put("listeners", "http://" + host + ":" + port);
        properties.put("config.storage.topic", groupId + "-configs");
        properties.put("offset.storage.topic", groupId + "-offsets");
        properties.put("status.storage.topic", groupId + "-status");
        properties.put("config.storage.replication.factor", "1");
        properties.put("offset.storage.replication.factor", "1");
        properties.put("status.storage.replication.factor", "1");
        return properties;
    }
}
