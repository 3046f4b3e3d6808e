package io.fleetlake.servers.kafka;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/** The Kafka server properties for a {@link KafkaBrokerConfig}: a pure function, so that it can be unit-tested. */
final class KafkaBrokerProperties {
    static final String CLIENT_LISTENER = "PLAINTEXT";
    static final String CONTROLLER_LISTENER = "CONTROLLER";

    private KafkaBrokerProperties() {}

    static Map<String, String> of(KafkaBrokerConfig config) {
        requireNonNull(config, "config is null");
        String host = config.host();
        Map<String, String> properties = new TreeMap<>();
        properties.put("process.roles", "broker,controller");
        properties.put("node.id", Integer.toString(config.nodeId()));
        properties.put(
                "listeners",
                CLIENT_LISTENER + "://" + host + ":" + config.port() + "," + CONTROLLER_LISTENER + "://" + host + ":"
                        + config.controllerPort());
        properties.put("advertised.listeners", CLIENT_LISTENER + "://" + host + ":" + config.port());
        properties.put(
                "listener.security.protocol.map", CLIENT_LISTENER + ":PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        properties.put("inter.broker.listener.name", CLIENT_LISTENER);
        properties.put("controller.listener.names", CONTROLLER_LISTENER);
        // A static single-voter quorum: the storage is formatted without a voter set and restarts need no state.
        properties.put("controller.quorum.voters", config.nodeId() + "@" + host + ":" + config.controllerPort());
        properties.put("log.dirs", config.logDirectory().toString());

        properties.put("num.partitions", Integer.toString(config.defaultPartitions()));
        properties.put("auto.create.topics.enable", Boolean.toString(config.autoCreateTopics()));
        properties.put("log.retention.ms", Long.toString(config.logRetention().toMillis()));

        // One broker: every internal topic must accept replication factor 1, or transactions (exactly-once in Flink
        // and Kafka Connect) and consumer groups never become available.
        properties.put("default.replication.factor", "1");
        properties.put("min.insync.replicas", "1");
        properties.put("offsets.topic.replication.factor", "1");
        properties.put("transaction.state.log.replication.factor", "1");
        properties.put("transaction.state.log.min.isr", "1");
        properties.put("share.coordinator.state.topic.replication.factor", "1");
        properties.put("share.coordinator.state.topic.min.isr", "1");
        // No other members will join: start the first consumer group generation at once.
        properties.put("group.initial.rebalance.delay.ms", "0");
        return Collections.unmodifiableMap(properties);
    }

    static Properties asProperties(Map<String, String> values) {
        Properties properties = new Properties();
        properties.putAll(values);
        return properties;
    }
}
