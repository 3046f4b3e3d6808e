package io.fleetlake.flink.functions;

import static io.fleetlake.flink.enrichment.TestRoutes.FIRST_STOP;
import static io.fleetlake.flink.enrichment.TestRoutes.VEHICLE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fleetlake.flink.TestRecords;
import io.fleetlake.flink.config.EnrichmentConfig;
import io.fleetlake.flink.enrichment.Enrichment;
import io.fleetlake.flink.enrichment.TestRoutes;
import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RouteUpdate;
import io.fleetlake.model.Position;
import io.fleetlake.model.VehicleStatus;
import java.time.Duration;
import java.time.Instant;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class EnrichPositionsTest {
    private static final Duration TTL = Duration.ofHours(24);
    private static final EnrichmentConfig CONFIG = EnrichmentConfig.defaults();
    private static final Instant NOW = Instant.parse("2026-11-29T18:00:02Z");
    private static final Instant EVENT_TIME = Instant.parse("2026-11-29T18:00:00Z");

    private KeyedTwoInputStreamOperatorTestHarness<String, IngestedPosition, RouteUpdate, EnrichedPosition> harness;
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
    void positionIsEnrichedWithTheRouteInState() throws Exception {
        harness.processElement2(RouteUpdate.assigned(TestRoutes.route(), NOW), Long.MIN_VALUE);
        IngestedPosition position = position(0, 40.4025, -3.70, 30);

        harness.processElement1(position, EVENT_TIME.toEpochMilli());

        StreamRecord<? extends EnrichedPosition> output =
                harness.extractOutputStreamRecords().get(0);
        assertThat(output.getTimestamp()).as("the event time travels on").isEqualTo(EVENT_TIME.toEpochMilli());
        assertThat(output.getValue().ingested()).isEqualTo(position);
        Enrichment enrichment = output.getValue().enrichment();
        assertThat(enrichment.routeId()).isEqualTo("R-1");
        assertThat(enrichment.nextStopId()).isEqualTo("S-1");
        assertThat(enrichment.status()).isEqualTo(VehicleStatus.ON_ROUTE);
        assertThat(enrichment.stale()).isFalse();
    }

    @Test
    void vehicleWithoutRouteGetsItsStatusFromItsSpeed() throws Exception {
        harness.processElement1(position(0, 40.4025, -3.70, 30), 0);

        assertThat(harness.extractOutputValues())
                .singleElement()
                .extracting(EnrichedPosition::enrichment)
                .isEqualTo(Enrichment.withoutRoute(VehicleStatus.NO_ROUTE));
    }

    @Test
    void routeOfAnotherVehicleIsNotUsed() throws Exception {
        harness.processElement2(RouteUpdate.assigned(TestRoutes.route("R-7", "VH-0007"), NOW), Long.MIN_VALUE);

        harness.processElement1(position(0, 40.4025, -3.70, 30), 0);

        assertThat(harness.extractOutputValues().get(0).enrichment().routeId()).isNull();
    }

    @Test
    void routeFetchedLongerAgoThanStaleAfterIsUsedAndFlagged() throws Exception {
        harness.processElement2(RouteUpdate.assigned(TestRoutes.route(), NOW), Long.MIN_VALUE);

        harness.setProcessingTime(NOW.plus(CONFIG.routeStaleAfter()).toEpochMilli());
        harness.processElement1(position(0, 40.4025, -3.70, 30), 0);
        harness.setProcessingTime(NOW.plus(CONFIG.routeStaleAfter()).toEpochMilli() + 1);
        harness.processElement1(position(10, 40.4030, -3.70, 30), 0);

        assertThat(harness.extractOutputValues())
                .extracting(enriched -> enriched.enrichment().routeId(), enriched -> enriched.enrichment()
                        .stale())
                .containsExactly(tuple("R-1", false), tuple("R-1", true));
    }

    @Test
    void aRefreshMakesTheRouteFreshAgain() throws Exception {
        harness.processElement2(RouteUpdate.assigned(TestRoutes.route(), NOW), Long.MIN_VALUE);
        Instant later = NOW.plus(CONFIG.routeStaleAfter()).plusSeconds(60);
        harness.setProcessingTime(later.toEpochMilli());

        harness.processElement2(RouteUpdate.assigned(TestRoutes.route(), later), Long.MIN_VALUE);
        harness.processElement1(position(0, 40.4025, -3.70, 30), 0);

        assertThat(harness.extractOutputValues().get(0).enrichment().stale()).isFalse();
    }

    @Test
    void withdrawnRouteIsNoLongerUsed() throws Exception {
        harness.processElement2(RouteUpdate.assigned(TestRoutes.route(), NOW), Long.MIN_VALUE);
        harness.processElement2(RouteUpdate.withdrawn(VEHICLE, NOW.plusSeconds(300)), Long.MIN_VALUE);

        harness.processElement1(position(0, 40.4025, -3.70, 30), 0);

        assertThat(harness.extractOutputValues().get(0).enrichment())
                .isEqualTo(Enrichment.withoutRoute(VehicleStatus.NO_ROUTE));
    }

    @Test
    void restoredStateKeepsTheRouteAndTheProgress() throws Exception {
        harness.processElement2(RouteUpdate.assigned(TestRoutes.route(), NOW), Long.MIN_VALUE);
        harness.processElement1(position(0, FIRST_STOP.latitude(), FIRST_STOP.longitude(), 30), 0);
        OperatorSubtaskState snapshot = harness.snapshot(1, 0);
        harness.close();

        harness = harness();
        harness.initializeState(snapshot);
        harness.open();
        harness.processElement1(position(10, 40.4060, -3.70, 30), 0);

        assertThat(harness.extractOutputValues()).singleElement().satisfies(enriched -> {
            assertThat(enriched.enrichment().routeId()).isEqualTo("R-1");
            assertThat(enriched.enrichment().nextStopId())
                    .as("the first stop was reached before the checkpoint")
                    .isEqualTo("S-2");
        });
    }

    @Test
    void stateOfAVehicleThatDisappearedExpires() throws Exception {
        harness.setStateTtlProcessingTime(0);
        harness.processElement2(RouteUpdate.assigned(TestRoutes.route(), NOW), Long.MIN_VALUE);
        harness.processElement1(position(0, 40.4025, -3.70, 30), 0);
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
        assertThat(harness.numEventTimeTimers() + harness.numProcessingTimeTimers())
                .isZero();
        harness.processElement1(position(10, 40.4030, -3.70, 30), 0);
        assertThat(harness.extractOutputValues().get(0).enrichment().routeId()).isNull();
    }

    private IngestedPosition position(long seconds, double latitude, double longitude, double speedKmh) {
        Position position = new Position(
                VEHICLE, EVENT_TIME.plusSeconds(seconds), latitude, longitude, speedKmh, 0.0, null, null, null, null);
        return TestRecords.ingested(position, 0, offset++);
    }

    private static KeyedTwoInputStreamOperatorTestHarness<String, IngestedPosition, RouteUpdate, EnrichedPosition>
            harness() throws Exception {
        KeyedTwoInputStreamOperatorTestHarness<String, IngestedPosition, RouteUpdate, EnrichedPosition> harness =
                new KeyedTwoInputStreamOperatorTestHarness<>(
                        new KeyedCoProcessOperator<>(new EnrichPositions(CONFIG, TTL)),
                        IngestedPosition::vehicleId,
                        RouteUpdate::vehicleId,
                        Types.STRING);
        harness.setProcessingTime(NOW.toEpochMilli());
        return harness;
    }
}
