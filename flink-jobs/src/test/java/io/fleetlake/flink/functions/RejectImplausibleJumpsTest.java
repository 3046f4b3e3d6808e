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
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Madrid and Barcelona are 505 km apart: ten seconds between them is a jump, a few metres per ten seconds is not. */
class RejectImplausibleJumpsTest {
    private static final Duration TTL = Duration.ofHours(24);
    private static final Instant NOW = Instant.parse("2026-11-29T18:00:02Z");
    private static final String VEHICLE = "VH-0001";

    private KeyedOneInputStreamOperatorTestHarness<String, IngestedPosition, IngestedPosition> harness;
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
    void glitchIsRejectedAndTheNextFixesCompareWithTheLastAcceptedOne() throws Exception {
        IngestedPosition madrid = process(madrid(0, 0));
        IngestedPosition glitch = process(barcelona(10, 0));
        IngestedPosition madridLater = process(madrid(20, 1));
        IngestedPosition madridLatest = process(madrid(30, 2));

        assertThat(harness.extractOutputValues()).containsExactly(madrid, madridLater, madridLatest);
        assertThat(rejected()).singleElement().satisfies(rejection -> {
            assertThat(rejection.source()).isEqualTo(glitch.source());
            assertThat(rejection.reason()).isEqualTo(RejectionReason.IMPLAUSIBLE_JUMP);
            assertThat(rejection.vehicleId()).isEqualTo(VEHICLE);
            assertThat(rejection.eventTime()).isEqualTo(glitch.position().eventTime());
            assertThat(rejection.rejectedAt()).isEqualTo(NOW);
            assertThat(rejection.detail())
                    .matches("505\\.\\d{3} km from the previous accepted fix \\(40\\.4168, -3\\.7038 at"
                            + " 2026-11-29T18:00:00\\.123Z\\) in 10s implies \\d+\\.\\d km/h, above the"
                            + " maximum implied speed of 300 km/h");
        });
    }

    @Test
    void startUpGlitchIsReplacedOnceTwoConsecutiveFixesAgree() throws Exception {
        // The receiver's first fix after a cold start is wrong; with nothing to compare with, it is accepted.
        IngestedPosition glitch = process(barcelona(0, 0));
        IngestedPosition firstCorrect = process(madrid(10, 0));
        IngestedPosition secondCorrect = process(madrid(20, 1));
        IngestedPosition thirdCorrect = process(madrid(30, 2));
        IngestedPosition jumpBack = process(barcelona(40, 0));

        assertThat(harness.extractOutputValues()).containsExactly(glitch, secondCorrect, thirdCorrect);
        assertThat(rejected())
                .extracting(RejectedRecord::source)
                .as("the first correct fix stays rejected; the new baseline is Madrid")
                .containsExactly(firstCorrect.source(), jumpBack.source());
    }

    @Test
    void onlyTheLastRejectedFixCounts() throws Exception {
        IngestedPosition madrid = process(madrid(0, 0));
        process(barcelona(10, 0));
        // Valencia: a jump from Madrid and from Barcelona alike.
        process(at(20, 39.4699, -0.3763));
        IngestedPosition valenciaAgain = process(at(30, 39.4701, -0.3763));

        assertThat(harness.extractOutputValues()).containsExactly(madrid, valenciaAgain);
        assertThat(rejected()).hasSize(2);
    }

    @Test
    void anAcceptedFixForgetsTheRejectedOne() throws Exception {
        process(madrid(0, 0));
        process(barcelona(10, 0));
        process(madrid(20, 1));
        IngestedPosition barcelonaAgain = process(barcelona(30, 1));

        assertThat(rejected())
                .hasSize(2)
                .last()
                .extracting(RejectedRecord::source)
                .isEqualTo(barcelonaAgain.source());
    }

    @Test
    void rejectedFixesTooFarApartInTimeDoNotAgree() throws Exception {
        process(madrid(0, 0));
        process(barcelona(Duration.ofMinutes(20).toSeconds(), 0));
        // 35 minutes before the previous rejected fix: beyond jump-check-max-gap (30 minutes), so no evidence.
        process(barcelona(-Duration.ofMinutes(15).toSeconds(), 1));

        assertThat(harness.extractOutputValues()).hasSize(1);
        assertThat(rejected()).hasSize(2);
    }

    @Test
    void aLateFixDoesNotMoveTheBaselineBack() throws Exception {
        long thirtyMinutes = Duration.ofMinutes(30).toSeconds();
        process(madrid(thirtyMinutes, 0));
        process(madrid(60, 1));
        // Five minutes after the newest accepted fix: a jump. Against the late fix it would be beyond the gap.
        process(barcelona(thirtyMinutes + Duration.ofMinutes(5).toSeconds(), 0));

        assertThat(harness.extractOutputValues()).hasSize(2);
        assertThat(rejected()).extracting(RejectedRecord::reason).containsExactly(RejectionReason.IMPLAUSIBLE_JUMP);
    }

    @Test
    void restoredStateKeepsTheRejectedFix() throws Exception {
        process(madrid(0, 0));
        process(barcelona(10, 0));
        OperatorSubtaskState snapshot = harness.snapshot(1, 0);
        harness.close();

        harness = harness();
        harness.initializeState(snapshot);
        harness.open();
        IngestedPosition agreesWithTheRejectedFix = process(barcelona(20, 1));

        assertThat(harness.extractOutputValues()).containsExactly(agreesWithTheRejectedFix);
        assertThat(rejected()).isEmpty();
    }

    @Test
    void restoredBaselineStillRejectsJumps() throws Exception {
        process(madrid(0, 0));
        OperatorSubtaskState snapshot = harness.snapshot(1, 0);
        harness.close();

        harness = harness();
        harness.initializeState(snapshot);
        harness.open();
        process(barcelona(10, 0));

        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(rejected()).extracting(RejectedRecord::reason).containsExactly(RejectionReason.IMPLAUSIBLE_JUMP);
    }

    @Test
    void expiredStateIsFreedAndNoLongerJudges() throws Exception {
        harness.setStateTtlProcessingTime(0);
        process(madrid(0, 0));
        process(barcelona(10, 0));
        assertThat(harness.numKeyedStateEntries()).isEqualTo(2);

        harness.setStateTtlProcessingTime(TTL.toMillis() + 1);
        OperatorSubtaskState snapshot = harness.snapshot(1, 0);
        harness.close();
        harness = harness();
        harness.setStateTtlProcessingTime(TTL.toMillis() + 1);
        harness.initializeState(snapshot);
        harness.open();

        assertThat(harness.numKeyedStateEntries())
                .as("expired state is not restored")
                .isZero();
        IngestedPosition firstAfterSilence = process(barcelona(20, 0));
        assertThat(harness.extractOutputValues()).containsExactly(firstAfterSilence);
        assertThat(harness.numEventTimeTimers() + harness.numProcessingTimeTimers())
                .isZero();
    }

    @Test
    void expiredBaselineIsNotUsedBeforeItIsCleanedUp() throws Exception {
        harness.setStateTtlProcessingTime(0);
        process(madrid(0, 0));
        harness.setStateTtlProcessingTime(TTL.toMillis() + 1);

        IngestedPosition firstAfterSilence = process(barcelona(10, 0));

        assertThat(harness.extractOutputValues()).endsWith(firstAfterSilence);
        assertThat(rejected()).isEmpty();
    }

    private IngestedPosition process(Position position) throws Exception {
        IngestedPosition ingested = TestRecords.ingested(position, 0, offset++);
        harness.processElement(ingested, 0);
        return ingested;
    }

    /** Madrid, moved {@code step} times 22 m north. */
    private static Position madrid(long seconds, int step) {
        return at(seconds, TestRecords.MADRID_LATITUDE + step * 0.0002, TestRecords.MADRID_LONGITUDE);
    }

    /** Barcelona, moved {@code step} times 22 m north. */
    private static Position barcelona(long seconds, int step) {
        return at(seconds, 41.3874 + step * 0.0002, 2.1686);
    }

    private static Position at(long seconds, double latitude, double longitude) {
        return TestRecords.at(VEHICLE, EVENT_TIME.plusSeconds(seconds), latitude, longitude);
    }

    private List<RejectedRecord> rejected() {
        Queue<StreamRecord<RejectedRecord>> sideOutput = harness.getSideOutput(Rejections.SIDE_OUTPUT);
        if (sideOutput == null) {
            return List.of();
        }
        return sideOutput.stream().map(StreamRecord::getValue).toList();
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, IngestedPosition, IngestedPosition> harness()
            throws Exception {
        KeyedOneInputStreamOperatorTestHarness<String, IngestedPosition, IngestedPosition> harness =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new RejectImplausibleJumps(TestRecords.RULES, TTL)),
                        IngestedPosition::vehicleId,
                        Types.STRING);
        harness.setProcessingTime(NOW.toEpochMilli());
        return harness;
    }
}
