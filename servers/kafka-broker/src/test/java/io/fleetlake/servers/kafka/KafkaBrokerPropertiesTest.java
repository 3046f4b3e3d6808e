package io.fleetlake.servers.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import kafka.server.KafkaConfig;
import org.junit.jupiter.api.Test;

class KafkaBrokerPropertiesTest {
    private static final KafkaBrokerConfig CONFIG = new KafkaBrokerConfig(
            "127.0.0.1",
            19092,
            19093,
            Path.of("/data/kafka"),
            3,
            "ZmxlZXQtbGFrZWhvdXNlIQ",
            4,
            Duration.ofDays(2),
            false);

    @Test
    void combinedModeWithListenersOnTheConfiguredHost() {
        Map<String, String> properties = KafkaBrokerProperties.of(CONFIG);

        assertThat(properties)
                .containsEntry("process.roles", "broker,controller")
                .containsEntry("node.id", "3")
                .containsEntry("listeners", "PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093")
                .containsEntry("advertised.listeners", "PLAINTEXT://127.0.0.1:19092")
                .containsEntry("controller.listener.names", "CONTROLLER")
                .containsEntry("inter.broker.listener.name", "PLAINTEXT")
                .containsEntry("controller.quorum.voters", "3@127.0.0.1:19093")
                .containsEntry("log.dirs", Path.of("/data/kafka/logs").toString());
    }

    @Test
    void topicDefaultsComeFromTheConfig() {
        assertThat(KafkaBrokerProperties.of(CONFIG))
                .containsEntry("num.partitions", "4")
                .containsEntry("auto.create.topics.enable", "false")
                .containsEntry(
                        "log.retention.ms", Long.toString(Duration.ofDays(2).toMillis()));
    }

    @Test
    void internalTopicsFitASingleBrokerSoTransactionsWork() {
        assertThat(KafkaBrokerProperties.of(CONFIG))
                .containsEntry("offsets.topic.replication.factor", "1")
                .containsEntry("transaction.state.log.replication.factor", "1")
                .containsEntry("transaction.state.log.min.isr", "1")
                .containsEntry("min.insync.replicas", "1")
                .containsEntry("default.replication.factor", "1")
                .containsEntry("group.initial.rebalance.delay.ms", "0");
    }

    @Test
    void nothingIsBoundToAllInterfaces() {
        assertThat(KafkaBrokerProperties.of(CONFIG).values()).noneMatch(value -> value.contains("0.0.0.0"));
    }

    @Test
    void kafkaAcceptsTheGeneratedProperties() {
        KafkaConfig kafkaConfig =
                KafkaConfig.fromProps(KafkaBrokerProperties.asProperties(KafkaBrokerProperties.of(CONFIG)), false);

        assertThat(kafkaConfig.nodeId()).isEqualTo(3);
        assertThat(kafkaConfig.metadataLogDir())
                .isEqualTo(Path.of("/data/kafka/logs").toString());
        assertThat(kafkaConfig.numPartitions()).isEqualTo(4);
        assertThat(kafkaConfig.getInt("transaction.state.log.min.isr")).isEqualTo(1);
    }
}
