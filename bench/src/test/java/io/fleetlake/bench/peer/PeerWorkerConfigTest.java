package io.fleetlake.bench.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PeerWorkerConfigTest {
    @Test
    void pinsEveryDefault() {
        assertThat(PeerWorkerConfig.from(ConfigSource.of(Map.of())))
                .isEqualTo(new PeerWorkerConfig(
                        "127.0.0.1", 8084, "127.0.0.1:9092", "fleet-bench-peer", Duration.ofSeconds(1)));
    }

    @Test
    void readsEveryKey() {
        PeerWorkerConfig config = PeerWorkerConfig.from(ConfigSource.of(Map.of(
                PeerWorkerConfig.HOST, "127.0.0.2",
                PeerWorkerConfig.PORT, "18084",
                PeerWorkerConfig.BOOTSTRAP_SERVERS, "127.0.0.1:19092",
                PeerWorkerConfig.GROUP_ID, "peer-2",
                PeerWorkerConfig.OFFSET_FLUSH_INTERVAL, "500ms")));

        assertThat(config)
                .isEqualTo(
                        new PeerWorkerConfig("127.0.0.2", 18084, "127.0.0.1:19092", "peer-2", Duration.ofMillis(500)));
    }

    @Test
    void workerPropertiesBindTheRestApiToTheHostAndFlushOffsetsOften() {
        Map<String, String> properties = new PeerWorkerConfig(
                        "127.0.0.1", 18084, "127.0.0.1:19092", "peer-2", Duration.ofSeconds(1))
                .workerProperties();

        assertThat(properties)
                .containsEntry("listeners", "http://127.0.0.1:18084")
                .containsEntry("bootstrap.servers", "127.0.0.1:19092")
                .containsEntry("group.id", "peer-2")
                .containsEntry("config.storage.topic", "peer-2-configs")
                .containsEntry("offset.storage.topic", "peer-2-offsets")
                .containsEntry("status.storage.topic", "peer-2-status")
                .containsEntry("offset.flush.interval.ms", "1000")
                .containsEntry("plugin.discovery", "service_load");
    }

    @Test
    void rejectsABlankGroupAndATooShortFlushInterval() {
        assertThatThrownBy(() -> new PeerWorkerConfig("127.0.0.1", 8084, "b", " ", Duration.ofSeconds(1)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(PeerWorkerConfig.GROUP_ID);
        assertThatThrownBy(() -> new PeerWorkerConfig("127.0.0.1", 8084, "b", "g", Duration.ofMillis(10)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(PeerWorkerConfig.OFFSET_FLUSH_INTERVAL);
        assertThatThrownBy(() -> new PeerWorkerConfig("127.0.0.1", 0, "b", "g", Duration.ofSeconds(1)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(PeerWorkerConfig.PORT);
    }
}
