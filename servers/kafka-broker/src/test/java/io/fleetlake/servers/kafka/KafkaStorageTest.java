package io.fleetlake.servers.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaStorageTest {
    @TempDir
    Path dataDirectory;

    @Test
    void formatsOnlyAnEmptyDirectory() throws Exception {
        KafkaBrokerConfig config = config(KafkaBrokerConfig.DEFAULT_CLUSTER_ID);

        assertThat(KafkaStorage.formatIfNeeded(config)).isTrue();
        Path metaProperties = config.logDirectory().resolve("meta.properties");
        assertThat(Files.readString(metaProperties))
                .contains("cluster.id=" + KafkaBrokerConfig.DEFAULT_CLUSTER_ID)
                .contains("node.id=1");
        Path marker = Files.writeString(config.logDirectory().resolve("kept.txt"), "data");

        assertThat(KafkaStorage.formatIfNeeded(config)).isFalse();
        assertThat(marker).hasContent("data");
    }

    @Test
    void refusesStorageOfAnotherCluster() {
        KafkaStorage.formatIfNeeded(config(KafkaBrokerConfig.DEFAULT_CLUSTER_ID));

        assertThatThrownBy(() -> KafkaStorage.formatIfNeeded(config("MkU3OEVBNTcwNTJENDM2Qg")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("belongs to cluster " + KafkaBrokerConfig.DEFAULT_CLUSTER_ID)
                .hasMessageContaining("set kafka.cluster-id to " + KafkaBrokerConfig.DEFAULT_CLUSTER_ID);
    }

    private KafkaBrokerConfig config(String clusterId) {
        return new KafkaBrokerConfig(
                "127.0.0.1", 9092, 9093, dataDirectory, 1, clusterId, 2, Duration.ofDays(7), false);
    }
}
