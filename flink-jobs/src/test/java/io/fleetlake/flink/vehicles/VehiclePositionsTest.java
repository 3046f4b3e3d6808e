package io.fleetlake.flink.vehicles;

import static io.fleetlake.flink.enrichment.TestRoutes.FIRST_STOP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.fleetlake.flink.TestRecords;
import io.fleetlake.flink.config.EnrichmentConfig;
import io.fleetlake.flink.enrichment.Enrichment;
import io.fleetlake.flink.enrichment.TestRoutes;
import io.fleetlake.flink.functions.Rejections;
import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.flink.records.RouteUpdate;
import io.fleetlake.flink.sinks.VehicleState;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.VehicleStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The vehicle operator with Flink's two-input harness: de-duplication (resends, conflicts, the bounded memory), the
 * jump check (glitches, baseline resets, reprocessed jumps), the enrichment, failure isolation, expiry and snapshot →
 * restore of the one state value per vehicle. Madrid and Barcelona are 505 km apart: ten seconds between them is a
 * jump, a few metres per ten seconds is not.
 */
class VehiclePositionsTest {
    private static final Duration TTL = Duration.ofHours(24);
    private static final int MEMORY = 4;
    private static final Instant NOW = Instant.parse("2026-11-29T18:00:02Z");
    private static final Instant EVENT_TIME = TestRecords.EVENT_TIME;
    private static final String VEHICLE = TestRoutes.VEHICLE;
    private static final EnrichmentConfig ENRICHMENT = EnrichmentConfig.defaults();

    private KeyedTwoInputStreamOperatorTestHarness<String, IngestedPosition, RouteUpdate, EnrichedPosition> harness;
    private long offset;

    @BeforeEach
    void openHarness() throws Exception {
        harness = harness(VehiclePositionsTest::row);
        harness.open();
    }

    @AfterEach
    void closeHarness() throws Exception {
        harness.close();
    }

    // De-duplication

    @Test
    void resendAtANewOffsetIsDroppedAndEveryOutputOfTheOriginalComesOnce() throws Exception {
        IngestedPosition original = process(madrid(0, 0));
        process(TestRecords.ingested(original.position(), 0, 99));
        IngestedPosition next = process(madrid(1, 1));

        assertThat(acceptedIngested()).containsExactly(original, next);
        assertThat(rows()).containsExactly(row(original), row(next));
        assertThat(currentStates())
                .extracting(VehicleState::eventTime)
                .containsExactly(
                        original.position().eventTime(), next.position().eventTime());
        assertThat(rejected()).isEmpty();
    }

    @Test
    void sameEventTimeWithOtherContentIsRejectedNamingTheFirstAcceptedRecord() throws Exception {
        IngestedPosition first = process(madrid(0, 0));
        IngestedPosition conflicting = process(TestRecords.ingested(madrid(0, 1), 1, 11));
        process(TestRecords.ingested(first.position(), 0, 12));

        assertThat(acceptedIngested()).containsExactly(first);
        assertThat(rejected())
                .containsExactly(new RejectedRecord(
                        conflicting.source(),
                        RejectionReason.CONFLICTING_RESEND,
                        "vehicle VH-0001 already reported a different position with event_time "
                                + EVENT_TIME + "; the first one was accepted and it was read from"
                                + " gps.raw.positions partition 0 offset 0",
                        NOW,
                        VEHICLE,
                        EVENT_TIME));
    }

    @Test
    void aDifferentBatteryLevelIsAConflictToo() throws Exception {
        process(madrid(0, 0).withBatteryLevel(80.0));
        process(madrid(0, 0).withBatteryLevel(79.0));

        assertThat(rejected()).extracting(RejectedRecord::reason).containsExactly(RejectionReason.CONFLICTING_RESEND);
    }

    @Test
    void eventTimesThatDifferInTheLastNanosecondAreDifferentFixes() throws Exception {
        IngestedPosition first = process(madrid(0, 0));
        IngestedPosition nanosecondLater = process(
                TestRecords.ingested(TestRecords.at(VEHICLE, EVENT_TIME.plusNanos(1), 40.4168, -3.7038), 0, offset++));

        assertThat(acceptedIngested()).containsExactly(first, nanosecondLater);
    }

    @Test
    void otherVehicleWithTheSameEventTimeIsItsOwnFix() throws Exception {
        IngestedPosition mine = process(madrid(0, 0));
        IngestedPosition other = process(TestRecords.ingested(TestRecords.position("VH-0002", EVENT_TIME), 1, 10));

        assertThat(acceptedIngested()).containsExactly(mine, other);
    }

    /**
     * The bounded memory: a resend is recognised while fewer than {@code MEMORY} other fixes of the vehicle were
     * accepted after its original; once its original has left the memory, it is accepted again (a duplicate row).
     */
    @Test
    void resendIsRecognisedWhileItsOriginalIsAmongTheLastAcceptedFixes() throws Exception {
        IngestedPosition original = process(madrid(0, 0));
        for (int fix = 1; fix < MEMORY; fix++) {
            process(madrid(fix * 10, fix));
        }
        process(TestRecords.ingested(original.position(), 0, 100));
        assertThat(accepted()).as("the original and %s newer fixes", MEMORY - 1).hasSize(MEMORY);

        process(madrid(MEMORY * 10, MEMORY));
        IngestedPosition tooOld = process(TestRecords.ingested(original.position(), 0, 101));

        assertThat(acceptedIngested())
                .as("the original left the memory of %s fixes: its resend is taken for a new fix", MEMORY)
                .hasSize(MEMORY + 2)
                .endsWith(tooOld);
    }

    @Test
    void fixesOlderThanTheNewestAreRememberedInTheOrderTheyArrived() throws Exception {
        // A device uploads a buffer of old fixes after newer ones, then repeats one of them.
        process(madrid(600, 0));
        IngestedPosition buffered = process(madrid(0, 1));
        process(madrid(10, 2));
        process(TestRecords.ingested(buffered.position(), 0, 50));

        assertThat(acceptedIngested()).hasSize(3).doesNotContain(TestRecords.ingested(buffered.position(), 0, 50));
    }

    // Jump check

    @Test
    void glitchIsRejectedAndTheNextFixesCompareWithTheLastAcceptedOne() throws Exception {
        IngestedPosition madrid = process(madrid(0, 0));
        IngestedPosition glitch = process(barcelona(10, 0));
        IngestedPosition madridLater = process(madrid(20, 1));

        assertThat(acceptedIngested()).containsExactly(madrid, madridLater);
        assertThat(rejected()).singleElement().satisfies(rejection -> {
            assertThat(rejection.source()).isEqualTo(glitch.source());
            assertThat(rejection.reason()).isEqualTo(RejectionReason.IMPLAUSIBLE_JUMP);
            assertThat(rejection.eventTime()).isEqualTo(glitch.position().eventTime());
            assertThat(rejection.detail())
                    .matches("505\\.\\d{3} km from the previous accepted fix \\(40\\.4168, -3\\.7038 at"
                            + " 2026-11-29T18:00:00\\.123Z\\) in 10s implies \\d+\\.\\d km/h, above the"
                            + " maximum implied speed of 300 km/h");
        });
    }

    @Test
    void startUpGlitchIsReplacedOnceTwoConsecutiveFixesAgree() throws Exception {
        IngestedPosition glitch = process(barcelona(0, 0));
        IngestedPosition firstCorrect = process(madrid(10, 0));
        IngestedPosition secondCorrect = process(madrid(20, 1));
        IngestedPosition jumpBack = process(barcelona(40, 0));

        assertThat(acceptedIngested()).containsExactly(glitch, secondCorrect);
        assertThat(rejected())
                .extracting(RejectedRecord::source)
                .containsExactly(firstCorrect.source(), jumpBack.source());
    }

    @Test
    void onlyTheLastRejectedFixCountsAndAnAcceptedFixForgetsIt() throws Exception {
        IngestedPosition madrid = process(madrid(0, 0));
        process(barcelona(10, 0));
        process(at(20, 39.4699, -0.3763));
        IngestedPosition valenciaAgain = process(at(30, 39.4701, -0.3763));
        process(madrid(40, 1));

        assertThat(acceptedIngested()).containsExactly(madrid, valenciaAgain);
    }

    @Test
    void rejectedFixesTooFarApartInTimeDoNotAgree() throws Exception {
        process(madrid(0, 0));
        process(barcelona(Duration.ofMinutes(20).toSeconds(), 0));
        process(barcelona(-Duration.ofMinutes(15).toSeconds(), 1));

        assertThat(accepted()).hasSize(1);
        assertThat(rejected()).hasSize(2);
    }

    @Test
    void aLateFixDoesNotMoveTheBaselineBack() throws Exception {
        long thirtyMinutes = Duration.ofMinutes(30).toSeconds();
        process(madrid(thirtyMinutes, 0));
        process(madrid(60, 1));
        process(barcelona(thirtyMinutes + Duration.ofMinutes(5).toSeconds(), 0));

        assertThat(accepted()).hasSize(2);
        assertThat(rejected()).extracting(RejectedRecord::reason).containsExactly(RejectionReason.IMPLAUSIBLE_JUMP);
    }

    /**
     * The bug of the earlier layout: the de-duplication remembered the fix before the jump check rejected it, so its
     * republished copy was dropped as a resend. Only accepted fixes are remembered, and a republished fix is exempt from
     * the jump check: it lands, once.
     */
    @Test
    void reprocessedJumpIsAcceptedOnceAndLeavesTheBaselineAlone() throws Exception {
        process(madrid(0, 0));
        IngestedPosition ferry = process(barcelona(10, 0));
        assertThat(rejected()).extracting(RejectedRecord::reason).containsExactly(RejectionReason.IMPLAUSIBLE_JUMP);

        IngestedPosition republished = reprocessed(ferry, 200);
        process(republished);
        process(reprocessed(ferry, 201));
        IngestedPosition madridLater = process(madrid(20, 1));

        assertThat(acceptedIngested()).endsWith(republished, madridLater).hasSize(3);
        assertThat(rejected())
                .as("nothing more rejected; Madrid still the baseline")
                .hasSize(1);
    }

    @Test
    void resendOfARejectedJumpIsJudgedAgain() throws Exception {
        process(madrid(0, 0));
        IngestedPosition glitch = process(barcelona(10, 0));
        process(TestRecords.ingested(glitch.position(), 0, 300));

        assertThat(rejected())
                .extracting(RejectedRecord::reason)
                .containsExactly(RejectionReason.IMPLAUSIBLE_JUMP, RejectionReason.IMPLAUSIBLE_JUMP);
    }

    // Enrichment

    @Test
    void positionIsEnrichedWithTheRouteInStateAndKeepsItsEventTime() throws Exception {
        harness.processElement2(RouteUpdate.assigned(TestRoutes.route(), NOW), Long.MIN_VALUE);
        IngestedPosition position = ingested(0, 40.4025, -3.70, 30);

        harness.processElement1(position, EVENT_TIME.toEpochMilli());

        StreamRecord<? extends EnrichedPosition> output =
                harness.extractOutputStreamRecords().get(0);
        assertThat(output.getTimestamp()).isEqualTo(EVENT_TIME.toEpochMilli());
        Enrichment enrichment = output.getValue().enrichment();
        assertThat(enrichment.routeId()).isEqualTo("R-1");
        assertThat(enrichment.nextStopId()).isEqualTo("S-1");
        assertThat(enrichment.status()).isEqualTo(VehicleStatus.ON_ROUTE);
        assertThat(currentStates()).singleElement().satisfies(state -> {
            assertThat(state.routeId()).isEqualTo("R-1");
            assertThat(state.status()).isEqualTo(VehicleStatus.ON_ROUTE);
        });
    }

    @Test
    void vehicleWithoutRouteGetsItsStatusFromItsSpeedAndAWithdrawnRouteIsNotUsed() throws Exception {
        harness.processElement1(ingested(0, 40.4025, -3.70, 30), 0);
        harness.processElement2(RouteUpdate.assigned(TestRoutes.route(), NOW), Long.MIN_VALUE);
        harness.processElement2(RouteUpdate.withdrawn(VEHICLE, NOW.plusSeconds(300)), Long.MIN_VALUE);
        harness.processElement1(ingested(10, 40.4030, -3.70, 30), 0);

        assertThat(accepted())
                .extracting(EnrichedPosition::enrichment)
                .containsOnly(Enrichment.withoutRoute(VehicleStatus.NO_ROUTE));
    }

    @Test
    void routeFetchedLongerAgoThanStaleAfterIsUsedAndFlagged() throws Exception {
        harness.processElement2(RouteUpdate.assigned(TestRoutes.route(), NOW), Long.MIN_VALUE);

        harness.setProcessingTime(NOW.plus(ENRICHMENT.routeStaleAfter()).toEpochMilli());
        harness.processElement1(ingested(0, 40.4025, -3.70, 30), 0);
        harness.setProcessingTime(NOW.plus(ENRICHMENT.routeStaleAfter()).toEpochMilli() + 1);
        harness.processElement1(ingested(10, 40.4030, -3.70, 30), 0);

        assertThat(accepted())
                .extracting(enriched -> enriched.enrichment().routeId(), enriched -> enriched.enrichment()
                        .stale())
                .containsExactly(tuple("R-1", false), tuple("R-1", true));
    }

    // Failure isolation

    /**
     * An exception, and the errors one fix can cause: a real {@link OutOfMemoryError} of an allocation sized by the
     * fix, a real {@link StackOverflowError}; the fix is dead-lettered, the next fix of the vehicle is processed.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "exception, java.lang.IllegalStateException: no row for offset 1",
        "out of memory, java.lang.OutOfMemoryError: Java heap space",
        "stack overflow, java.lang.StackOverflowError"
    })
    void aFixWhoseRowCannotBeBuiltIsDeadLetteredAndLeavesTheVehicleAsItWas(String kind, String summary)
            throws Exception {
        harness.close();
        harness = harness(new FailingRows(1, kind));
        harness.open();

        IngestedPosition first = process(madrid(0, 0));
        IngestedPosition failing = process(madrid(10, 1));
        IngestedPosition again = process(TestRecords.ingested(failing.position(), 0, 2));

        assertThat(acceptedIngested()).containsExactly(first, again);
        assertThat(rejected()).singleElement().satisfies(rejection -> {
            assertThat(rejection.source()).isEqualTo(failing.source());
            assertThat(rejection.reason()).isEqualTo(RejectionReason.PROCESSING_ERROR);
            assertThat(rejection.detail()).isEqualTo("vehicle-positions failed: " + summary);
        });
        assertThat(rows()).as("no row, no current state of the failed fix").hasSize(2);
        assertThat(currentStates()).hasSize(2);
    }

    /** An error no fix causes (a class missing from the job's jar) fails the task, to restart from the checkpoint. */
    @Test
    void anErrorNoFixCausesFailsTheTask() throws Exception {
        harness.close();
        harness = harness(new FailingRows(1, "linkage"));
        harness.open();
        process(madrid(0, 0));

        assertThatThrownBy(() -> process(madrid(10, 1)))
                .isInstanceOf(NoClassDefFoundError.class)
                .hasMessage("io/fleetlake/Missing");
    }

    // State: one value per vehicle, expiry, snapshot and restore

    @Test
    void oneStateEntryPerVehicleWhateverTheNumberOfFixes() throws Exception {
        harness.processElement2(RouteUpdate.assigned(TestRoutes.route(), NOW), Long.MIN_VALUE);
        for (int fix = 0; fix < 50; fix++) {
            process(madrid(fix * 10, fix));
        }
        process(TestRecords.ingested(TestRecords.position("VH-0002", EVENT_TIME), 1, 0));

        assertThat(harness.numKeyedStateEntries()).isEqualTo(2);
        assertThat(harness.numProcessingTimeTimers())
                .as("one expiry timer per vehicle")
                .isEqualTo(2);
    }

    @Test
    void restoredStateKeepsMemoryBaselineRejectedFixRouteAndProgress() throws Exception {
        harness.processElement2(RouteUpdate.assigned(TestRoutes.route(), NOW), Long.MIN_VALUE);
        IngestedPosition atFirstStop = process(ingested(0, FIRST_STOP.latitude(), FIRST_STOP.longitude(), 30));
        process(barcelona(10, 0));
        OperatorSubtaskState snapshot = harness.snapshot(1, 0);
        harness.close();

        harness = harness(VehiclePositionsTest::row);
        harness.initializeState(snapshot);
        harness.open();
        process(TestRecords.ingested(atFirstStop.position(), 0, 50));
        IngestedPosition agreesWithTheRejectedFix = process(barcelona(20, 1));
        IngestedPosition onTheRoute = process(ingested(30, 40.4060, -3.70, 30));

        assertThat(acceptedIngested())
                .as("the resend dropped, the baseline reset")
                .containsExactly(agreesWithTheRejectedFix);
        assertThat(rejected())
                .as("back on the route in Madrid: a jump from the new baseline, Barcelona")
                .extracting(RejectedRecord::source)
                .containsExactly(onTheRoute.source());
        IngestedPosition later = process(ingested(40, 40.4061, -3.70, 30));
        assertThat(accepted()).last().satisfies(enriched -> {
            assertThat(enriched.ingested()).isEqualTo(later);
            assertThat(enriched.enrichment().nextStopId())
                    .as("the first stop was reached before the checkpoint")
                    .isEqualTo("S-2");
        });
    }

    @Test
    void stateFromBeforeTheSnapshotIsAllThatIsRestored() throws Exception {
        process(madrid(0, 0));
        OperatorSubtaskState snapshot = harness.snapshot(1, 0);
        IngestedPosition afterSnapshot = process(madrid(10, 1));
        harness.close();

        harness = harness(VehiclePositionsTest::row);
        harness.initializeState(snapshot);
        harness.open();
        process(afterSnapshot);

        assertThat(acceptedIngested())
                .as("the replay after a failover is not a resend")
                .containsExactly(afterSnapshot);
    }

    @Test
    void vehicleSilentForTheTimeToLiveIsForgotten() throws Exception {
        harness.processElement2(RouteUpdate.assigned(TestRoutes.route(), NOW), Long.MIN_VALUE);
        IngestedPosition madrid = process(madrid(0, 0));
        harness.setProcessingTime(NOW.plus(TTL).toEpochMilli() - 1);
        process(madrid(10, 1));
        harness.setProcessingTime(NOW.plus(TTL).toEpochMilli());
        assertThat(harness.numKeyedStateEntries())
                .as("active %s ago: kept, its timer moved", Duration.ofMillis(1))
                .isEqualTo(1);

        harness.setProcessingTime(NOW.plus(TTL).plus(TTL).toEpochMilli());

        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numProcessingTimeTimers()).isZero();
        IngestedPosition barcelona = process(barcelona(20, 0));
        IngestedPosition resend = process(TestRecords.ingested(madrid.position(), 0, 77));
        assertThat(accepted())
                .as("no baseline survived: Barcelona is accepted, and without its route")
                .hasSize(3)
                .last()
                .satisfies(enriched -> {
                    assertThat(enriched.ingested()).isEqualTo(barcelona);
                    assertThat(enriched.enrichment().routeId()).isNull();
                });
        assertThat(rejected())
                .as("no memory survived: the resend is judged as a new fix, a jump from Barcelona")
                .extracting(RejectedRecord::source, RejectedRecord::reason)
                .containsExactly(tuple(resend.source(), RejectionReason.IMPLAUSIBLE_JUMP));
    }

    private IngestedPosition process(Position position) throws Exception {
        return process(TestRecords.ingested(position, 0, offset++));
    }

    private IngestedPosition process(IngestedPosition position) throws Exception {
        harness.processElement1(position, position.position().eventTime().toEpochMilli());
        return position;
    }

    private IngestedPosition ingested(long seconds, double latitude, double longitude, double speedKmh) {
        Position position = new Position(
                VEHICLE, EVENT_TIME.plusSeconds(seconds), latitude, longitude, speedKmh, 0.0, null, null, null, null);
        return TestRecords.ingested(position, 0, offset++);
    }

    private static IngestedPosition reprocessed(IngestedPosition rejected, long offset) {
        RawRecord raw = rejected.source();
        return new IngestedPosition(
                rejected.position(),
                new RawRecord(
                        raw.topic(),
                        raw.partition(),
                        offset,
                        raw.timestamp(),
                        raw.key(),
                        raw.value(),
                        raw.mqttTopic(),
                        raw.mqttReceivedAt(),
                        "gps.dlq.positions/0/7"));
    }

    private static Position madrid(long seconds, int step) {
        return at(seconds, TestRecords.MADRID_LATITUDE + step * 0.0002, TestRecords.MADRID_LONGITUDE);
    }

    private static Position barcelona(long seconds, int step) {
        return at(seconds, 41.3874 + step * 0.0002, 2.1686);
    }

    private static Position at(long seconds, double latitude, double longitude) {
        return TestRecords.at(VEHICLE, EVENT_TIME.plusSeconds(seconds), latitude, longitude);
    }

    private static String row(EnrichedPosition position) {
        return position.vehicleId() + "@" + position.ingested().sourceOffset();
    }

    private static String row(IngestedPosition position) {
        return position.vehicleId() + "@" + position.sourceOffset();
    }

    private List<EnrichedPosition> accepted() {
        return harness.extractOutputValues();
    }

    private List<IngestedPosition> acceptedIngested() {
        return accepted().stream().map(EnrichedPosition::ingested).toList();
    }

    private List<RejectedRecord> rejected() {
        return sideOutput(Rejections.SIDE_OUTPUT.getId());
    }

    private List<String> rows() {
        return sideOutput("position-rows");
    }

    private List<VehicleState> currentStates() {
        return sideOutput(VehiclePositions.CURRENT_STATE.getId());
    }

    @SuppressWarnings("unchecked")
    private <T> List<T> sideOutput(String id) {
        Queue<StreamRecord<T>> output = (Queue<StreamRecord<T>>)
                (Queue<?>) harness.getSideOutput(new org.apache.flink.util.OutputTag<>(id, Types.STRING));
        if (output == null) {
            return List.of();
        }
        return output.stream().map(StreamRecord::getValue).toList();
    }

    private static KeyedTwoInputStreamOperatorTestHarness<String, IngestedPosition, RouteUpdate, EnrichedPosition>
            harness(MapFunction<EnrichedPosition, String> rows) throws Exception {
        KeyedTwoInputStreamOperatorTestHarness<String, IngestedPosition, RouteUpdate, EnrichedPosition> harness =
                new KeyedTwoInputStreamOperatorTestHarness<>(
                        new KeyedCoProcessOperator<>(
                                new VehiclePositions<>(TestRecords.RULES, ENRICHMENT, TTL, MEMORY, rows, Types.STRING)),
                        IngestedPosition::vehicleId,
                        RouteUpdate::vehicleId,
                        Types.STRING);
        harness.setProcessingTime(NOW.toEpochMilli());
        return harness;
    }

    /** Fails on the fix read from one offset, like a converter meeting a value it cannot write, in the given way. */
    private record FailingRows(long failingOffset, String kind) implements MapFunction<EnrichedPosition, String> {
        @Override
        public String map(EnrichedPosition position) {
            if (position.ingested().sourceOffset() == failingOffset) {
                switch (kind) {
                    case "exception" -> throw new IllegalStateException("no row for offset " + failingOffset);
                    // More than the test JVM's heap (-Xmx1g): refused at once, as a length a payload declares would be.
                    case "out of memory" -> {
                        return new String(new char[Integer.MAX_VALUE - 8]);
                    }
                    case "stack overflow" -> {
                        return Integer.toString(depth(position, 0));
                    }
                    default -> throw new NoClassDefFoundError("io/fleetlake/Missing");
                }
            }
            return row(position);
        }

        private static int depth(EnrichedPosition position, int depth) {
            return depth(position, depth + 1) + 1;
        }
    }
}
