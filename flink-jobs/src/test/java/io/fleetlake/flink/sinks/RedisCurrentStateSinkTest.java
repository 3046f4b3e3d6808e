package io.fleetlake.flink.sinks;

import static io.fleetlake.flink.TestRecords.EVENT_TIME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.flink.TestRecords;
import java.time.Duration;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.runtime.operators.sink.SinkWriterOperatorFactory;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** The sink in Flink's sink writer operator: its pending updates travel through a real checkpoint. */
class RedisCurrentStateSinkTest {
    private static final RedisCurrentStateSink.Settings SETTINGS = new RedisCurrentStateSink.Settings(
            100,
            Duration.ofMillis(100),
            Duration.ofMillis(200),
            Duration.ofSeconds(1),
            Duration.ofSeconds(5),
            Duration.ofSeconds(1));

    @Test
    void pendingUpdatesOfAnOutageAreInTheCheckpointAndWrittenAfterTheRestore() throws Exception {
        FakeCurrentStateStore unavailable = new FakeCurrentStateStore();
        unavailable.failUntilRecovered();
        OperatorSubtaskState checkpoint;
        try (OneInputStreamOperatorTestHarness<VehicleState, CommittableMessage<Void>> harness = harness(unavailable)) {
            harness.open();
            harness.processElement(position("VH-1", 1), 0);
            harness.processElement(position("VH-1", 3), 0);
            harness.processElement(position("VH-2", 2), 0);

            harness.prepareSnapshotPreBarrier(1);
            checkpoint = harness.snapshot(1, 1);
        }
        assertThat(unavailable.stored).isEmpty();

        FakeCurrentStateStore available = new FakeCurrentStateStore();
        try (OneInputStreamOperatorTestHarness<VehicleState, CommittableMessage<Void>> harness = harness(available)) {
            harness.initializeState(checkpoint);
            harness.open();

            harness.setProcessingTime(SETTINGS.flushInterval().toMillis());

            assertThat(available.stored).containsOnlyKeys("VH-1", "VH-2").containsEntry("VH-1", position("VH-1", 3));
        }
    }

    @Test
    void restoresACheckpointTakenBeforeTheSinkHadState() throws Exception {
        OperatorSubtaskState stateless = OneInputStreamOperatorTestHarness.repackageState();
        FakeCurrentStateStore store = new FakeCurrentStateStore();
        try (OneInputStreamOperatorTestHarness<VehicleState, CommittableMessage<Void>> harness = harness(store)) {
            harness.initializeState(stateless);
            harness.open();
            harness.processElement(position("VH-1", 1), 0);

            harness.prepareSnapshotPreBarrier(1);

            assertThat(store.stored).containsOnlyKeys("VH-1");
        }
    }

    @Test
    void settingsAreValidated() {
        assertThatThrownBy(() -> new RedisCurrentStateSink.Settings(
                        0,
                        Duration.ofMillis(1),
                        Duration.ofMillis(1),
                        Duration.ofMillis(1),
                        Duration.ofMillis(1),
                        Duration.ofMillis(1)))
                .hasMessageContaining("batchSize must be at least 1");
        assertThatThrownBy(() -> new RedisCurrentStateSink.Settings(
                        1,
                        Duration.ofMillis(1),
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(1),
                        Duration.ofMillis(1),
                        Duration.ofMillis(1)))
                .hasMessageContaining("maxBackoff (PT1S) must not be shorter than initialBackoff (PT2S)");
        assertThatThrownBy(() -> new RedisCurrentStateSink.Settings(
                        1,
                        Duration.ofMillis(1),
                        Duration.ofMillis(1),
                        Duration.ofMillis(1),
                        Duration.ofMillis(1),
                        Duration.ZERO))
                .hasMessageContaining("requestTimeout must be positive");
    }

    @Test
    void defaultSettings() {
        assertThat(RedisCurrentStateSink.Settings.DEFAULT)
                .isEqualTo(new RedisCurrentStateSink.Settings(
                        500,
                        Duration.ofMillis(25),
                        Duration.ofMillis(200),
                        Duration.ofSeconds(30),
                        Duration.ofMinutes(1),
                        Duration.ofSeconds(2)));
    }

    private static OneInputStreamOperatorTestHarness<VehicleState, CommittableMessage<Void>> harness(
            FakeCurrentStateStore store) throws Exception {
        RedisCurrentStateSink sink = RedisCurrentStateSink.create(() -> store, SETTINGS);
        return new OneInputStreamOperatorTestHarness<>(new SinkWriterOperatorFactory<>(sink));
    }

    private static VehicleState position(String vehicleId, int secondsAfterEventTime) {
        return VehicleState.of(TestRecords.enriched(
                TestRecords.position(vehicleId, EVENT_TIME.plusSeconds(secondsAfterEventTime)), 0, 1));
    }
}
