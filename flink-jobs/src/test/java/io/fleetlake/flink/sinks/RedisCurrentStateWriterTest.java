package io.fleetlake.flink.sinks;

import static io.fleetlake.flink.TestRecords.EVENT_TIME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.flink.RecordingMetricGroup;
import io.fleetlake.flink.TestRecords;
import io.fleetlake.flink.records.EnrichedPosition;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.runtime.tasks.TestProcessingTimeService;
import org.junit.jupiter.api.Test;

class RedisCurrentStateWriterTest {
    private static final RedisCurrentStateSink.Settings SETTINGS = new RedisCurrentStateSink.Settings(
            3, Duration.ofMillis(100), 3, Duration.ofMillis(200), Duration.ofMillis(300));

    private final FakeCurrentStateStore store = new FakeCurrentStateStore();
    private final TestProcessingTimeService timeService = new TestProcessingTimeService();
    private final RecordingMetricGroup metrics = new RecordingMetricGroup();
    private final List<Duration> sleeps = new ArrayList<>();
    private final RedisCurrentStateWriter writer =
            new RedisCurrentStateWriter(store, timeService, metrics, SETTINGS, sleeps::add);

    @Test
    void batchKeepsOnlyTheNewestUpdatePerVehicle() throws Exception {
        writer.write(position("VH-1", 1), null);
        writer.write(position("VH-1", 3), null);
        writer.write(position("VH-1", 2), null);
        writer.write(position("VH-2", 1), null);

        writer.flush(false);

        assertThat(store.batches).containsExactly(List.of(state("VH-1", 3), state("VH-2", 1)));
    }

    @Test
    void fullBatchIsWrittenAtOnce() throws Exception {
        writer.write(position("VH-1", 1), null);
        writer.write(position("VH-2", 1), null);
        assertThat(store.batches).isEmpty();

        writer.write(position("VH-3", 1), null);

        assertThat(store.batches).containsExactly(List.of(state("VH-1", 1), state("VH-2", 1), state("VH-3", 1)));
    }

    @Test
    void timerWritesAPartialBatch() throws Exception {
        timeService.setCurrentTime(1_000);
        writer.write(position("VH-1", 1), null);

        timeService.setCurrentTime(1_099);
        assertThat(store.batches).isEmpty();
        timeService.setCurrentTime(1_100);

        assertThat(store.batches).containsExactly(List.of(state("VH-1", 1)));
        assertThat(timeService.getNumActiveTimers()).isZero();
    }

    @Test
    void flushWritesPendingUpdatesOnlyOnce() throws Exception {
        writer.write(position("VH-1", 1), null);

        writer.flush(false);
        writer.flush(true);
        timeService.setCurrentTime(1_000);

        assertThat(store.batches).hasSize(1);
    }

    @Test
    void countsAppliedAndIgnoredUpdates() throws Exception {
        writer.write(position("VH-1", 5), null);
        writer.flush(false);
        writer.write(position("VH-1", 4), null);
        writer.write(position("VH-2", 1), null);
        writer.flush(false);

        assertThat(metrics.count("redisUpdatesApplied")).isEqualTo(2);
        assertThat(metrics.count("redisUpdatesIgnored")).isEqualTo(1);
        assertThat(store.stored.get("VH-1")).isEqualTo(state("VH-1", 5));
    }

    @Test
    void failedBatchIsRetriedWithBackoff() throws Exception {
        store.failuresLeft = 2;
        writer.write(position("VH-1", 1), null);

        writer.flush(false);

        assertThat(sleeps).containsExactly(Duration.ofMillis(200), Duration.ofMillis(300));
        assertThat(store.batches).containsExactly(List.of(state("VH-1", 1)));
    }

    @Test
    void batchThatKeepsFailingFailsTheTaskInsteadOfBeingDropped() throws Exception {
        store.failuresLeft = Integer.MAX_VALUE;
        writer.write(position("VH-1", 1), null);

        assertThatThrownBy(() -> writer.flush(false))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot write the current state of 1 vehicles to Redis after 3 attempts")
                .hasCauseInstanceOf(CurrentStateStoreException.class);
        assertThat(sleeps).hasSize(2);
    }

    @Test
    void closeClosesTheStore() throws Exception {
        writer.close();

        assertThat(store.closed).isTrue();
    }

    private static EnrichedPosition position(String vehicleId, int secondsAfterEventTime) {
        return TestRecords.enriched(
                TestRecords.position(vehicleId, EVENT_TIME.plusSeconds(secondsAfterEventTime)), 0, 1);
    }

    private static VehicleState state(String vehicleId, int secondsAfterEventTime) {
        return VehicleState.of(position(vehicleId, secondsAfterEventTime));
    }
}
