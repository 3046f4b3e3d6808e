package io.fleetlake.flink.sinks;

import static io.fleetlake.flink.TestRecords.EVENT_TIME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.flink.RecordingMetricGroup;
import io.fleetlake.flink.TestRecords;
import io.fleetlake.model.PipelineMetricNames;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.runtime.tasks.TestProcessingTimeService;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RedisCurrentStateWriterTest {
    /** Backoff 200, 400, 800, then capped at 1000 ms. */
    private static final RedisCurrentStateSink.Settings SETTINGS = new RedisCurrentStateSink.Settings(
            3,
            Duration.ofMillis(100),
            Duration.ofMillis(200),
            Duration.ofMillis(1_000),
            Duration.ofSeconds(5),
            Duration.ofSeconds(1));

    private final FakeCurrentStateStore store = new FakeCurrentStateStore();
    private final TestProcessingTimeService timeService = new TestProcessingTimeService();
    private final RecordingMetricGroup metrics = new RecordingMetricGroup();
    private final RedisCurrentStateWriter writer = writer(store, timeService, metrics, List.of());

    @BeforeEach
    void startTheClock() throws Exception {
        // The test time service starts at Long.MIN_VALUE.
        timeService.setCurrentTime(0);
    }

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
        assertThat(writer.snapshotState(1)).isEmpty();
    }

    @Test
    void countsAppliedAndIgnoredUpdates() throws Exception {
        writer.write(position("VH-1", 5), null);
        writer.flush(false);
        writer.write(position("VH-1", 4), null);
        writer.write(position("VH-2", 1), null);
        writer.flush(false);

        assertThat(metrics.count(PipelineMetricNames.REDIS_UPDATES_APPLIED)).isEqualTo(2);
        assertThat(metrics.count(PipelineMetricNames.REDIS_UPDATES_IGNORED)).isEqualTo(1);
        assertThat(metrics.count(PipelineMetricNames.REDIS_WRITE_FAILURES)).isZero();
        assertThat(store.stored.get("VH-1")).isEqualTo(state("VH-1", 5));
    }

    @Test
    void countsWriteRequestsTheirBatchSizeAndLatencyButNotFailedAttempts() throws Exception {
        writer.write(position("VH-1", 5), null);
        writer.write(position("VH-2", 5), null);
        writer.write(position("VH-3", 5), null);
        writer.flush(false);
        store.failUntilRecovered();
        writer.write(position("VH-4", 5), null);
        writer.flush(false);

        assertThat(metrics.count(PipelineMetricNames.REDIS_WRITES)).isEqualTo(1);
        assertThat(metrics.gaugeValue(PipelineMetricNames.REDIS_LAST_BATCH_SIZE))
                .isEqualTo(3);
        assertThat(metrics.count(PipelineMetricNames.REDIS_WRITE_MILLIS))
                .isEqualTo(((Number) metrics.gaugeValue(PipelineMetricNames.REDIS_LAST_WRITE_MILLIS)).longValue());
        assertThat(metrics.count(PipelineMetricNames.REDIS_WRITE_FAILURES)).isEqualTo(1);
    }

    @Test
    void failedWriteNeverFailsTheTaskAndIsRetriedWithExponentialBackoff() throws Exception {
        store.failUntilRecovered();
        writer.write(position("VH-1", 1), null);
        writer.write(position("VH-2", 1), null);
        writer.write(position("VH-3", 1), null);
        assertThat(store.attempts).as("the full batch is tried at once").isEqualTo(1);

        assertThat(attemptsAt(199)).isEqualTo(1);
        assertThat(attemptsAt(200)).isEqualTo(2);
        assertThat(attemptsAt(599)).isEqualTo(2);
        assertThat(attemptsAt(600)).isEqualTo(3);
        assertThat(attemptsAt(1_399)).isEqualTo(3);
        assertThat(attemptsAt(1_400)).isEqualTo(4);
        assertThat(attemptsAt(2_399)).as("capped at maxBackoff").isEqualTo(4);
        assertThat(attemptsAt(2_400)).isEqualTo(5);
        assertThat(attemptsAt(3_400)).isEqualTo(6);

        assertThat(metrics.count(PipelineMetricNames.REDIS_WRITE_FAILURES)).isEqualTo(6);
        assertThat(metrics.gaugeValue(PipelineMetricNames.REDIS_PENDING_VEHICLES))
                .isEqualTo(3);
        assertThat(timeService.getNumActiveTimers()).as("one retry at a time").isEqualTo(1);
    }

    @Test
    void updatesDuringAnOutageMergeIntoOnePendingUpdatePerVehicleNewestWins() throws Exception {
        store.failUntilRecovered();
        writer.write(position("VH-1", 5), null);
        writer.flush(false);
        int attemptsWhenTheOutageStarted = store.attempts;

        for (int second = 0; second < 100; second++) {
            writer.write(position("VH-" + (second % 4), second), null);
        }
        writer.write(position("VH-1", 1), null);

        assertThat(store.attempts)
                .as("during an outage only the retry timer writes")
                .isEqualTo(attemptsWhenTheOutageStarted);
        assertThat(metrics.gaugeValue(PipelineMetricNames.REDIS_PENDING_VEHICLES))
                .as("bounded by the number of vehicles")
                .isEqualTo(4);
        assertThat(writer.snapshotState(1))
                .containsExactlyInAnyOrder(state("VH-0", 96), state("VH-1", 97), state("VH-2", 98), state("VH-3", 99));
    }

    @Test
    void flushBeforeACheckpointMakesOneAttemptAndReturnsWhileRedisFails() throws Exception {
        store.failUntilRecovered();
        writer.write(position("VH-1", 1), null);

        writer.flush(false);
        writer.flush(false);

        assertThat(store.attempts).isEqualTo(1);
        assertThat(writer.snapshotState(1)).containsExactly(state("VH-1", 1));
    }

    @Test
    void timerDoesNotWriteDuringAnOutage() throws Exception {
        store.failUntilRecovered();
        timeService.setCurrentTime(1_000);
        writer.write(position("VH-1", 1), null);
        writer.flush(false);
        writer.write(position("VH-2", 1), null);

        timeService.setCurrentTime(1_199);

        assertThat(store.attempts).as("the flush timer at 1,100 does not try").isEqualTo(1);
    }

    @Test
    void stateConvergesToTheNewestUpdateOfEveryVehicleWhenRedisRecovers() throws Exception {
        store.failUntilRecovered();
        writer.write(position("VH-1", 1), null);
        writer.flush(false);
        writer.write(position("VH-1", 4), null);
        writer.write(position("VH-2", 2), null);
        writer.write(position("VH-1", 3), null);
        timeService.setCurrentTime(200);
        timeService.setCurrentTime(600);

        store.recover();
        timeService.setCurrentTime(1_400);

        assertThat(store.stored).containsOnly(entry("VH-1", 4), entry("VH-2", 2));
        assertThat(metrics.gaugeValue(PipelineMetricNames.REDIS_PENDING_VEHICLES))
                .isEqualTo(0);
        assertThat(metrics.count(PipelineMetricNames.REDIS_WRITE_FAILURES)).isEqualTo(3);
        assertThat(timeService.getNumActiveTimers()).isZero();
        assertThat(writer.snapshotState(2)).isEmpty();

        writer.write(position("VH-3", 1), null);
        timeService.setCurrentTime(1_500);
        assertThat(store.stored).as("back to the flush interval").containsKey("VH-3");
    }

    @Test
    void pendingUpdatesAreWrittenInRequestsOfAtMostTheBatchSize() throws Exception {
        List<VehicleState> restored = new ArrayList<>();
        for (int vehicle = 0; vehicle < 7; vehicle++) {
            restored.add(state("VH-" + vehicle, 1));
        }
        RedisCurrentStateWriter restoredWriter = writer(store, timeService, metrics, restored);

        restoredWriter.flush(false);

        assertThat(store.batches).extracting(List::size).containsExactly(3, 3, 1);
    }

    @Test
    void requestsBeforeTheFailingOneAreNotRepeated() throws Exception {
        List<VehicleState> restored = new ArrayList<>();
        for (int vehicle = 0; vehicle < 5; vehicle++) {
            restored.add(state("VH-" + vehicle, 1));
        }
        store.successesBeforeFailures = 1;
        store.failuresLeft = 1;
        RedisCurrentStateWriter restoredWriter = writer(store, timeService, metrics, restored);

        restoredWriter.flush(false);

        assertThat(store.batches).containsExactly(List.of(state("VH-0", 1), state("VH-1", 1), state("VH-2", 1)));
        assertThat(restoredWriter.snapshotState(1)).containsExactly(state("VH-3", 1), state("VH-4", 1));
    }

    @Test
    void pendingUpdatesSurviveASnapshotAndRestore() throws Exception {
        store.failUntilRecovered();
        writer.write(position("VH-1", 5), null);
        writer.write(position("VH-2", 1), null);
        writer.flush(false);
        List<VehicleState> checkpoint = serializedAndBack(writer.snapshotState(7));
        writer.close();

        FakeCurrentStateStore recovered = new FakeCurrentStateStore();
        TestProcessingTimeService restartedTime = new TestProcessingTimeService();
        restartedTime.setCurrentTime(0);
        RedisCurrentStateWriter restarted = writer(recovered, restartedTime, new RecordingMetricGroup(), checkpoint);
        assertThat(restarted.snapshotState(8)).containsExactlyInAnyOrderElementsOf(checkpoint);

        restartedTime.setCurrentTime(SETTINGS.flushInterval().toMillis());

        assertThat(recovered.stored).containsOnly(entry("VH-1", 5), entry("VH-2", 1));
        assertThat(store.closed).isTrue();
    }

    @Test
    void restoredUpdatesOfTheSameVehicleKeepTheNewest() {
        // After rescaling, one subtask may restore the states of several former subtasks.
        RedisCurrentStateWriter restored = writer(
                store,
                timeService,
                metrics,
                List.of(state("VH-1", 5), state("VH-1", 9), state("VH-1", 7), state("VH-2", 1)));

        assertThat(restored.snapshotState(1)).containsExactly(state("VH-1", 9), state("VH-2", 1));
    }

    @Test
    void endOfInputFailsTheTaskRatherThanEndingWithUnwrittenUpdates() throws Exception {
        store.failUntilRecovered();
        writer.write(position("VH-1", 1), null);

        assertThatThrownBy(() -> writer.flush(true))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Redis is unavailable at the end of the input")
                .hasMessageContaining("1 vehicles");
    }

    @Test
    void closeClosesTheStore() throws Exception {
        writer.close();

        assertThat(store.closed).isTrue();
    }

    private int attemptsAt(long time) throws Exception {
        timeService.setCurrentTime(time);
        return store.attempts;
    }

    private static RedisCurrentStateWriter writer(
            CurrentStateStore store,
            TestProcessingTimeService timeService,
            RecordingMetricGroup metrics,
            Collection<VehicleState> recovered) {
        return new RedisCurrentStateWriter(store, timeService, metrics, SETTINGS, recovered);
    }

    private static List<VehicleState> serializedAndBack(List<VehicleState> states) throws IOException {
        VehicleStateSerializer serializer = new VehicleStateSerializer();
        List<VehicleState> copies = new ArrayList<>();
        for (VehicleState state : states) {
            copies.add(serializer.deserialize(serializer.getVersion(), serializer.serialize(state)));
        }
        return copies;
    }

    private static Map.Entry<String, VehicleState> entry(String vehicleId, int secondsAfterEventTime) {
        return Map.entry(vehicleId, state(vehicleId, secondsAfterEventTime));
    }

    /** The current-state update the vehicle operator prepares for an accepted fix. */
    private static VehicleState position(String vehicleId, int secondsAfterEventTime) {
        return VehicleState.of(TestRecords.enriched(
                TestRecords.position(vehicleId, EVENT_TIME.plusSeconds(secondsAfterEventTime)), 0, 1));
    }

    private static VehicleState state(String vehicleId, int secondsAfterEventTime) {
        return position(vehicleId, secondsAfterEventTime);
    }
}
