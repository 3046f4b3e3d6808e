package io.fleetlake.stack.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FlinkClusterSettingsTest {
    @Test
    void defaults() {
        assertThat(FlinkClusterSettings.from(ConfigSource.empty()))
                .isEqualTo(new FlinkClusterSettings(
                        2,
                        2,
                        new TaskManagerMemory(512, 128),
                        new JobManagerMemory(512),
                        "s3://flink/checkpoints",
                        "s3://flink/savepoints",
                        Duration.ofMinutes(2),
                        Map.of()));
    }

    @Test
    void everyKeyIsRead() {
        FlinkClusterSettings settings = FlinkClusterSettings.from(ConfigSource.of(Map.of(
                "cluster.taskmanagers", "3",
                "cluster.slots-per-taskmanager", "4",
                "cluster.taskmanager-heap-mb", "1024",
                "cluster.taskmanager-managed-mb", "256",
                "cluster.jobmanager-heap-mb", "768",
                "cluster.checkpoint-dir", "s3://state/checkpoints",
                "cluster.savepoint-dir", "s3://state/savepoints",
                "cluster.stop-timeout", "30s",
                "cluster.flink.heartbeat.timeout", "60s")));

        assertThat(settings)
                .isEqualTo(new FlinkClusterSettings(
                        3,
                        4,
                        new TaskManagerMemory(1024, 256),
                        new JobManagerMemory(768),
                        "s3://state/checkpoints",
                        "s3://state/savepoints",
                        Duration.ofSeconds(30),
                        Map.of("heartbeat.timeout", "60s")));
        assertThat(settings.totalSlots()).isEqualTo(12);
    }

    @Test
    void aSnapshotToRestoreIsNeverPartOfTheClusterConfiguration() {
        for (String key : FlinkClusterSettings.RESTORE_KEYS) {
            assertThatThrownBy(() -> FlinkClusterSettings.from(
                            ConfigSource.of(Map.of("cluster.flink." + key, "s3://flink/savepoints/savepoint-1"))))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("cluster.flink." + key)
                    .hasMessageContaining("never part of the cluster's configuration");
        }
    }

    @Test
    void invalidValuesNameTheKey() {
        assertThatThrownBy(() -> FlinkClusterSettings.from(ConfigSource.of(Map.of("cluster.taskmanagers", "0"))))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid configuration cluster.taskmanagers = 0: expected 1 to 16");
        assertThatThrownBy(
                        () -> FlinkClusterSettings.from(ConfigSource.of(Map.of("cluster.slots-per-taskmanager", "33"))))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid configuration cluster.slots-per-taskmanager = 33: expected 1 to 32");
        assertThatThrownBy(() -> FlinkClusterSettings.from(ConfigSource.of(Map.of("cluster.stop-timeout", "0s"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("cluster.stop-timeout");
        assertThatThrownBy(
                        () -> FlinkClusterSettings.from(ConfigSource.of(Map.of("cluster.taskmanager-heap-mb", "64"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("The task heap must be at least 128 MiB, got 64");
    }

    @Test
    void theJvmLimitsOfATaskManagerAreTheSumsFlinkExpects() {
        TaskManagerMemory memory = new TaskManagerMemory(512, 128);

        // heap = framework heap 128 + task heap 512; direct = framework off-heap 128 + task off-heap 32 + network 64
        assertThat(memory.jvmOptions())
                .containsExactly("-Xmx640m", "-Xms640m", "-XX:MaxDirectMemorySize=224m", "-XX:MaxMetaspaceSize=512m");
        assertThat(memory.flinkOptions())
                .containsEntry("taskmanager.memory.task.heap.size", "512m")
                .containsEntry("taskmanager.memory.managed.size", "128m")
                .containsEntry("taskmanager.memory.network.min", "64m")
                .containsEntry("taskmanager.memory.network.max", "64m");
        assertThat(memory.processMb()).isEqualTo(640 + 224 + 128 + 512 + 192);
    }
}
