package io.fleetlake.flink.functions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fleetlake.flink.TestRecords;
import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.flink.records.VehicleMinute;
import io.fleetlake.flink.windows.MinuteAggregate;
import io.fleetlake.model.Position;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The window operator exactly as the job builds it, with a lateness of five minutes. */
class VehicleMinutesTest {
    private static final Duration LATENESS = Duration.ofMinutes(5);
    private static final double STOP_SPEED = 3;
    private static final Instant MINUTE = Instant.parse("2026-11-29T18:00:00Z");
    private static final long FIRST_FIRING = 1_000_000L;
    private static final String VEHICLE = "VH-0001";

    private KeyedOneInputStreamOperatorTestHarness<String, EnrichedPosition, VehicleMinute> harness;
    private long offset;

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
    void windowFiresWhenTheWatermarkPassesItsEnd() throws Exception {
        process(VEHICLE, 0, 40.400, 10);
        process(VEHICLE, 20, 40.401, 20);
        process(VEHICLE, 40, 40.402, 30);
        process("VH-0002", 50, 40.5, 2);
        process(VEHICLE, 60, 40.403, 40);

        harness.processWatermark(MINUTE.plusSeconds(60).toEpochMilli() - 2);
        assertThat(minutes()).isEmpty();
        harness.setProcessingTime(FIRST_FIRING);
        // The window ends at 18:01, exclusive: its last instant is 18:00:59.999.
        harness.processWatermark(MINUTE.plusSeconds(60).toEpochMilli() - 1);

        assertThat(minutes())
                .extracting(VehicleMinute::vehicleId, VehicleMinute::windowStart, VehicleMinute::windowEnd)
                .containsExactlyInAnyOrder(
                        tuple(VEHICLE, MINUTE, MINUTE.plusSeconds(60)),
                        tuple("VH-0002", MINUTE, MINUTE.plusSeconds(60)));
        VehicleMinute minute = minute(VEHICLE, 0);
        assertThat(minute.aggregate())
                .isEqualTo(MinuteAggregate.of(
                        List.of(fix(0, 40.400, 10), fix(20, 40.401, 20), fix(40, 40.402, 30)), STOP_SPEED));
        assertThat(minute.computedAt()).isEqualTo(Instant.ofEpochMilli(FIRST_FIRING));
    }

    @Test
    void latePositionWithinTheLatenessFiresTheWindowAgainWithTheSameKey() throws Exception {
        process(VEHICLE, 0, 40.400, 10);
        process(VEHICLE, 40, 40.402, 30);
        harness.setProcessingTime(FIRST_FIRING);
        harness.processWatermark(MINUTE.plusSeconds(90).toEpochMilli());
        assertThat(minutes()).hasSize(1);

        harness.setProcessingTime(FIRST_FIRING + 5_000);
        process(VEHICLE, 20, 40.401, 20);

        List<VehicleMinute> minutes = minutes();
        assertThat(minutes).hasSize(2);
        assertThat(minutes)
                .extracting(VehicleMinute::vehicleId, VehicleMinute::windowStart)
                .containsOnly(tuple(VEHICLE, MINUTE));
        assertThat(minutes.get(0).aggregate().positions()).isEqualTo(2);
        assertThat(minutes.get(1).aggregate())
                .as("the replacement row counts the late position")
                .isEqualTo(MinuteAggregate.of(
                        List.of(fix(0, 40.400, 10), fix(20, 40.401, 20), fix(40, 40.402, 30)), STOP_SPEED));
        assertThat(minutes.get(1).computedAt()).isEqualTo(Instant.ofEpochMilli(FIRST_FIRING + 5_000));
        assertThat(latePositions()).isEmpty();
    }

    @Test
    void positionLaterThanTheLatenessGoesToTheSideOutputAndChangesNoRow() throws Exception {
        process(VEHICLE, 0, 40.400, 10);
        harness.processWatermark(MINUTE.plusSeconds(60).plus(LATENESS).toEpochMilli() - 2);
        process(VEHICLE, 10, 40.4005, 15);
        assertThat(minutes()).as("still within the lateness: fired again").hasSize(2);

        harness.processWatermark(MINUTE.plusSeconds(60).plus(LATENESS).toEpochMilli() - 1);
        EnrichedPosition tooLate = process(VEHICLE, 30, 40.401, 20);

        assertThat(minutes()).hasSize(2);
        assertThat(latePositions()).containsExactly(tooLate);
        assertThat(harness.numKeyedStateEntries())
                .as("the window's state is gone")
                .isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    @Test
    void windowContentsSurviveARestore() throws Exception {
        process(VEHICLE, 0, 40.400, 10);
        process(VEHICLE, 20, 40.401, 20);
        OperatorSubtaskState snapshot = harness.snapshot(1, 0);
        harness.close();

        harness = harness();
        harness.initializeState(snapshot);
        harness.open();
        process(VEHICLE, 40, 40.402, 30);
        harness.processWatermark(MINUTE.plusSeconds(60).toEpochMilli());

        assertThat(minute(VEHICLE, 0).aggregate().positions()).isEqualTo(3);
    }

    private EnrichedPosition process(String vehicleId, long seconds, double latitude, double speedKmh)
            throws Exception {
        Position position = new Position(
                vehicleId, MINUTE.plusSeconds(seconds), latitude, -3.7, speedKmh, 0.0, null, null, null, null);
        EnrichedPosition enriched = TestRecords.enriched(position, 0, offset++);
        harness.processElement(enriched, position.eventTime().toEpochMilli());
        return enriched;
    }

    private static MinuteAggregate.Fix fix(long seconds, double latitude, double speedKmh) {
        return new MinuteAggregate.Fix(MINUTE.plusSeconds(seconds).toEpochMilli(), latitude, -3.7, speedKmh);
    }

    private List<VehicleMinute> minutes() {
        return harness.extractOutputValues();
    }

    private VehicleMinute minute(String vehicleId, long startSecond) {
        return minutes().stream()
                .filter(minute -> minute.vehicleId().equals(vehicleId)
                        && minute.windowStart().equals(MINUTE.plusSeconds(startSecond)))
                .reduce((first, second) -> second)
                .orElseThrow();
    }

    private List<EnrichedPosition> latePositions() {
        var late = harness.getSideOutput(VehicleMinutes.LATE_POSITIONS);
        return late == null
                ? List.of()
                : late.stream().map(StreamRecord::getValue).toList();
    }

    @SuppressWarnings("unchecked")
    private static KeyedOneInputStreamOperatorTestHarness<String, EnrichedPosition, VehicleMinute> harness()
            throws Exception {
        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment();
        SingleOutputStreamOperator<VehicleMinute> minutes = VehicleMinutes.window(
                environment
                        .fromData(
                                TypeInformation.of(EnrichedPosition.class),
                                TestRecords.enriched(TestRecords.position(VEHICLE, MINUTE), 0, 0))
                        .keyBy(EnrichedPosition::vehicleId, Types.STRING),
                LATENESS,
                STOP_SPEED);
        OneInputStreamOperator<EnrichedPosition, VehicleMinute> operator =
                ((OneInputTransformation<EnrichedPosition, VehicleMinute>) minutes.getTransformation()).getOperator();
        return new KeyedOneInputStreamOperatorTestHarness<>(operator, EnrichedPosition::vehicleId, Types.STRING);
    }
}
