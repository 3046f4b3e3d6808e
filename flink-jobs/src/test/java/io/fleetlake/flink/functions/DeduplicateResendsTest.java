package io.fleetlake.flink.functions;

import static io.fleetlake.flink.TestRecords.EVENT_TIME;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.flink.TestRecords;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.model.Position;
import java.time.Duration;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DeduplicateResendsTest {
    private static final Duration TTL = Duration.ofHours(24);
    private static final Position FIRST = TestRecords.position("VH-0001", EVENT_TIME);
    private static final Position SECOND = TestRecords.position("VH-0001", EVENT_TIME.plusSeconds(1));
    private static final Position OTHER_VEHICLE = TestRecords.position("VH-0002", EVENT_TIME);

    private KeyedOneInputStreamOperatorTestHarness<String, IngestedPosition, IngestedPosition> harness;

    @BeforeEach
    void openHarness() throws Exception {
        harness = harness();
        harness.open();
    }

    @AfterEach
    void closeHarness() throws Exception {
        harness.close();
    }

    @Test
    void resendAtANewOffsetIsDropped() throws Exception {
        IngestedPosition original = TestRecords.ingested(FIRST, 0, 10);

        harness.processElement(original, 0);
        harness.processElement(TestRecords.ingested(FIRST, 0, 11), 0);
        harness.processElement(TestRecords.ingested(SECOND, 0, 12), 0);

        assertThat(harness.extractOutputValues()).containsExactly(original, TestRecords.ingested(SECOND, 0, 12));
    }

    @Test
    void sameIdentityWithDifferentPayloadIsDroppedToo() throws Exception {
        Position moved = new Position(FIRST.vehicleId(), FIRST.eventTime(), 41.0, -3.0, 0, 0, null, null, null);

        harness.processElement(TestRecords.ingested(FIRST, 0, 10), 0);
        harness.processElement(TestRecords.ingested(moved, 0, 11), 0);

        assertThat(harness.extractOutputValues()).containsExactly(TestRecords.ingested(FIRST, 0, 10));
    }

    @Test
    void otherVehicleWithTheSameEventTimeIsKept() throws Exception {
        harness.processElement(TestRecords.ingested(FIRST, 0, 10), 0);
        harness.processElement(TestRecords.ingested(OTHER_VEHICLE, 1, 10), 0);

        assertThat(harness.extractOutputValues())
                .containsExactly(TestRecords.ingested(FIRST, 0, 10), TestRecords.ingested(OTHER_VEHICLE, 1, 10));
    }

    @Test
    void restoredStateStillDropsResends() throws Exception {
        harness.processElement(TestRecords.ingested(FIRST, 0, 10), 0);
        OperatorSubtaskState snapshot = harness.snapshot(1, 0);
        harness.close();

        harness = harness();
        harness.initializeState(snapshot);
        harness.open();
        harness.processElement(TestRecords.ingested(FIRST, 0, 20), 0);
        harness.processElement(TestRecords.ingested(SECOND, 0, 21), 0);

        assertThat(harness.extractOutputValues()).containsExactly(TestRecords.ingested(SECOND, 0, 21));
    }

    @Test
    void stateFromBeforeTheSnapshotIsAllThatIsRestored() throws Exception {
        harness.processElement(TestRecords.ingested(FIRST, 0, 10), 0);
        OperatorSubtaskState snapshot = harness.snapshot(1, 0);
        harness.processElement(TestRecords.ingested(SECOND, 0, 11), 0);
        harness.close();

        // A failover replays offset 11 from the snapshot: it is not a resend and must come out again.
        harness = harness();
        harness.initializeState(snapshot);
        harness.open();
        harness.processElement(TestRecords.ingested(SECOND, 0, 11), 0);

        assertThat(harness.extractOutputValues()).containsExactly(TestRecords.ingested(SECOND, 0, 11));
    }

    @Test
    void expiredStateIsFreedAndNoLongerDeduplicates() throws Exception {
        harness.setStateTtlProcessingTime(0);
        harness.processElement(TestRecords.ingested(FIRST, 0, 10), 0);
        harness.setStateTtlProcessingTime(TTL.toMillis() - 1);
        harness.processElement(TestRecords.ingested(OTHER_VEHICLE, 1, 10), 0);
        assertThat(harness.numKeyedStateEntries()).isEqualTo(2);

        harness.setStateTtlProcessingTime(TTL.toMillis() + 1);
        OperatorSubtaskState snapshot = harness.snapshot(1, 0);
        harness.close();
        harness = harness();
        harness.setStateTtlProcessingTime(TTL.toMillis() + 1);
        harness.initializeState(snapshot);
        harness.open();

        assertThat(harness.numKeyedStateEntries())
                .as("only the unexpired vehicle is restored")
                .isEqualTo(1);
        harness.processElement(TestRecords.ingested(FIRST, 0, 30), 0);
        harness.processElement(TestRecords.ingested(OTHER_VEHICLE, 1, 31), 0);
        assertThat(harness.extractOutputValues()).containsExactly(TestRecords.ingested(FIRST, 0, 30));
        assertThat(harness.numEventTimeTimers() + harness.numProcessingTimeTimers())
                .isZero();
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, IngestedPosition, IngestedPosition> harness()
            throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new DeduplicateResends(TTL)), IngestedPosition::vehicleId, Types.STRING);
    }
}
