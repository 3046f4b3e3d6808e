package io.fleetlake.flink.functions;

import static io.fleetlake.flink.TestRecords.EVENT_TIME;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.flink.TestRecords;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DeduplicateResendsTest {
    private static final Duration TTL = Duration.ofHours(24);
    private static final Instant NOW = Instant.parse("2026-11-29T18:00:02Z");
    private static final Position FIRST = TestRecords.position("VH-0001", EVENT_TIME);
    private static final Position SECOND = TestRecords.position("VH-0001", EVENT_TIME.plusSeconds(1));
    private static final Position MOVED = TestRecords.at("VH-0001", EVENT_TIME, 40.5, -3.7);
    private static final Position OTHER_VEHICLE = TestRecords.position("VH-0002", EVENT_TIME);

    private KeyedOneInputStreamOperatorTestHarness<String, IngestedPosition, IngestedPosition> harness;

    @BeforeEach
    void openHarness() throws Exception {
        harness = harness(new DeduplicateResends(TTL));
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
        assertThat(rejected()).isEmpty();
    }

    @Test
    void sameIdentityWithDifferentContentIsRejectedNamingTheFirstAcceptedRecord() throws Exception {
        IngestedPosition conflicting = TestRecords.ingested(MOVED, 1, 11);

        harness.processElement(TestRecords.ingested(FIRST, 0, 10), 0);
        harness.processElement(conflicting, 0);
        harness.processElement(TestRecords.ingested(FIRST, 0, 12), 0);

        assertThat(harness.extractOutputValues()).containsExactly(TestRecords.ingested(FIRST, 0, 10));
        assertThat(rejected())
                .containsExactly(new RejectedRecord(
                        conflicting.source(),
                        RejectionReason.CONFLICTING_RESEND,
                        "vehicle VH-0001 already reported a different position with event_time"
                                + " 2026-11-29T18:00:00.123Z; the first one was accepted and it was read from"
                                + " gps.raw.positions partition 0 offset 10",
                        NOW,
                        "VH-0001",
                        EVENT_TIME));
    }

    @Test
    void aDifferentBatteryLevelIsAConflictToo() throws Exception {
        Position charged = withBattery(FIRST, 80.0);

        harness.processElement(TestRecords.ingested(charged, 0, 10), 0);
        harness.processElement(TestRecords.ingested(withBattery(FIRST, 79.0), 0, 11), 0);
        harness.processElement(TestRecords.ingested(charged, 0, 12), 0);

        assertThat(harness.extractOutputValues()).containsExactly(TestRecords.ingested(charged, 0, 10));
        assertThat(rejected()).extracting(RejectedRecord::reason).containsExactly(RejectionReason.CONFLICTING_RESEND);
    }

    @Test
    void otherVehicleWithTheSameEventTimeIsKept() throws Exception {
        harness.processElement(TestRecords.ingested(FIRST, 0, 10), 0);
        harness.processElement(TestRecords.ingested(OTHER_VEHICLE, 1, 10), 0);

        assertThat(harness.extractOutputValues())
                .containsExactly(TestRecords.ingested(FIRST, 0, 10), TestRecords.ingested(OTHER_VEHICLE, 1, 10));
    }

    @Test
    void restoredStateStillDropsResendsAndNamesTheFirstSource() throws Exception {
        harness.processElement(TestRecords.ingested(FIRST, 0, 10), 0);
        OperatorSubtaskState snapshot = harness.snapshot(1, 0);
        harness.close();

        harness = harness(new DeduplicateResends(TTL));
        harness.initializeState(snapshot);
        harness.open();
        harness.processElement(TestRecords.ingested(FIRST, 0, 20), 0);
        harness.processElement(TestRecords.ingested(MOVED, 0, 21), 0);
        harness.processElement(TestRecords.ingested(SECOND, 0, 22), 0);

        assertThat(harness.extractOutputValues()).containsExactly(TestRecords.ingested(SECOND, 0, 22));
        assertThat(rejected()).singleElement().satisfies(conflict -> assertThat(conflict.detail())
                .endsWith("read from gps.raw.positions partition 0 offset 10"));
    }

    @Test
    void stateFromBeforeTheSnapshotIsAllThatIsRestored() throws Exception {
        harness.processElement(TestRecords.ingested(FIRST, 0, 10), 0);
        OperatorSubtaskState snapshot = harness.snapshot(1, 0);
        harness.processElement(TestRecords.ingested(SECOND, 0, 11), 0);
        harness.close();

        // A failover replays offset 11 from the snapshot: it is not a resend and must come out again.
        harness = harness(new DeduplicateResends(TTL));
        harness.initializeState(snapshot);
        harness.open();
        harness.processElement(TestRecords.ingested(SECOND, 0, 11), 0);

        assertThat(harness.extractOutputValues()).containsExactly(TestRecords.ingested(SECOND, 0, 11));
    }

    @Test
    void everyAcceptedFixIsAStateEntryOfItsOwn() throws Exception {
        harness.processElement(TestRecords.ingested(FIRST, 0, 10), 0);
        harness.processElement(TestRecords.ingested(SECOND, 0, 11), 0);
        harness.processElement(TestRecords.ingested(FIRST, 0, 12), 0);
        harness.processElement(TestRecords.ingested(MOVED, 0, 13), 0);

        assertThat(harness.numKeyedStateEntries())
                .as("one entry per accepted (vehicle, event time), none for a resend or a conflict")
                .isEqualTo(2);
    }

    @Test
    void eventTimesThatDifferInTheLastNanosecondAreDifferentFixes() throws Exception {
        Position nanosecondLater = TestRecords.position("VH-0001", EVENT_TIME.plusNanos(1));

        harness.processElement(TestRecords.ingested(FIRST, 0, 10), 0);
        harness.processElement(TestRecords.ingested(nanosecondLater, 0, 11), 0);

        assertThat(harness.extractOutputValues())
                .containsExactly(TestRecords.ingested(FIRST, 0, 10), TestRecords.ingested(nanosecondLater, 0, 11));
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
        harness = harness(new DeduplicateResends(TTL));
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

    private static Position withBattery(Position position, double batteryLevel) {
        return new Position(
                position.vehicleId(),
                position.eventTime(),
                position.latitude(),
                position.longitude(),
                position.speedKmh(),
                position.headingDeg(),
                position.altitudeM(),
                position.accuracyM(),
                position.satellites(),
                batteryLevel);
    }

    private List<RejectedRecord> rejected() {
        Queue<StreamRecord<RejectedRecord>> sideOutput = harness.getSideOutput(Rejections.SIDE_OUTPUT);
        if (sideOutput == null) {
            return List.of();
        }
        return sideOutput.stream().map(StreamRecord::getValue).toList();
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, IngestedPosition, IngestedPosition> harness(
            DeduplicateResends operator) throws Exception {
        KeyedOneInputStreamOperatorTestHarness<String, IngestedPosition, IngestedPosition> harness =
                new KeyedOneInputStreamOperatorTestHarness<>(operator, IngestedPosition::vehicleId, Types.STRING);
        harness.setProcessingTime(NOW.toEpochMilli());
        return harness;
    }
}
