package io.fleetlake.servers.kafka;

import static java.util.Objects.requireNonNull;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node Kafka broker in KRaft combined mode (broker and controller in one server), running in this JVM.
 *
 * <p>{@link #start()} formats the storage on first use only, so a restart on the same data directory keeps every
 * topic and record. It returns once the broker has joined the quorum and accepts clients.
 */
public final class KafkaBroker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaBroker.class);

    private final KafkaBrokerConfig config;
    private KafkaRaftServer server;

    public KafkaBroker(KafkaBrokerConfig config) {
        this.config = requireNonNull(config, "config is null");
    }

    public synchronized void start() {
        if (server != null) {
            throw new IllegalStateException("Kafka broker on " + config.bootstrapServers() + " is already started");
        }
        // Validate the generated properties with Kafka's own rules before touching the storage.
        KafkaConfig kafkaConfig =
                KafkaConfig.fromProps(KafkaBrokerProperties.asProperties(KafkaBrokerProperties.of(config)), false);
        KafkaStorage.formatIfNeeded(config);
        KafkaRaftServer raftServer = new KafkaRaftServer(kafkaConfig, Time.SYSTEM);
        try {
            raftServer.startup();
        } catch (RuntimeException e) {
            IllegalStateException failure = new IllegalStateException(
                    "Kafka broker on " + config.bootstrapServers() + " failed to start: " + e.getMessage(), e);
            try {
                stop(raftServer);
            } catch (RuntimeException stopFailure) {
                failure.addSuppressed(stopFailure);
            }
            throw failure;
        }
        server = raftServer;
    }

    /** The client listener port. */
    public int port() {
        return config.port();
    }

    public String bootstrapServers() {
        return config.bootstrapServers();
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            LOG.info("Stopping Kafka broker on {}", config.bootstrapServers());
            try {
                stop(server);
            } finally {
                server = null;
            }
            LOG.info("Kafka broker stopped");
        }
    }

    private static void stop(KafkaRaftServer raftServer) {
        raftServer.shutdown();
        raftServer.awaitShutdown();
    }
}
