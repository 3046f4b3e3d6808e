package io.fleetlake.flink.enrichment;

import static io.fleetlake.flink.enrichment.TestRoutes.FIRST_STOP;
import static io.fleetlake.flink.enrichment.TestRoutes.SECOND_STOP;
import static io.fleetlake.flink.enrichment.TestRoutes.START;
import static io.fleetlake.flink.enrichment.TestRoutes.VEHICLE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.fleetlake.flink.config.EnrichmentConfig;
import io.fleetlake.flink.enrichment.StatusTracker.Observation;
import io.fleetlake.model.EnrichmentColumns.DistanceMethod;
import io.fleetlake.model.Position;
import io.fleetlake.model.VehicleStatus;
import io.fleetlake.model.planning.PlannedRoute;
import io.fleetlake.model.planning.PlannedStop;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The default thresholds: arrival 50 m, stop below 3 km/h for 60 s, deviating beyond 150 m for 3 fixes. */
class StatusTrackerTest {
    private static final EnrichmentConfig CONFIG = EnrichmentConfig.defaults();
    private static final Instant T0 = Instant.parse("2026-11-29T18:00:00Z");
    private static final RouteGeometry ROUTE = RouteGeometry.of(TestRoutes.route());
    private static final double MOVING_KMH = 30;
    private static final double STANDING_KMH = 0.5;

    private StatusTracker tracker = StatusTracker.INITIAL;

    @Test
    void withoutRouteTheStatusComesFromTheSpeedAlone() {
        List<Enrichment> enrichments = List.of(
                observe(null, 0, 40.0, -3.0, MOVING_KMH),
                observe(null, 10, 40.0, -3.0, STANDING_KMH),
                observe(null, 69, 40.0, -3.0, STANDING_KMH),
                observe(null, 70, 40.0, -3.0, 2.9));

        assertThat(enrichments)
                .extracting(Enrichment::status)
                .containsExactly(
                        VehicleStatus.NO_ROUTE, VehicleStatus.NO_ROUTE, VehicleStatus.NO_ROUTE, VehicleStatus.STOPPED);
        assertThat(enrichments).allSatisfy(enrichment -> {
            assertThat(enrichment.routeId()).isNull();
            assertThat(enrichment.nextStopId()).isNull();
            assertThat(enrichment.distanceFromRouteM()).isNull();
            assertThat(enrichment.stale()).isFalse();
        });
    }

    @Test
    void aFastFixEndsTheStop() {
        List<VehicleStatus> statuses = new ArrayList<>();
        statuses.add(observe(ROUTE, 0, 40.4025, -3.70, STANDING_KMH).status());
        statuses.add(observe(ROUTE, 60, 40.4025, -3.70, STANDING_KMH).status());
        statuses.add(observe(ROUTE, 70, 40.4025, -3.70, 3.0).status());
        statuses.add(observe(ROUTE, 80, 40.4025, -3.70, STANDING_KMH).status());
        statuses.add(observe(ROUTE, 139, 40.4025, -3.70, STANDING_KMH).status());
        statuses.add(observe(ROUTE, 140, 40.4025, -3.70, STANDING_KMH).status());

        assertThat(statuses)
                .containsExactly(
                        VehicleStatus.ON_ROUTE,
                        VehicleStatus.STOPPED,
                        VehicleStatus.ON_ROUTE,
                        VehicleStatus.ON_ROUTE,
                        VehicleStatus.ON_ROUTE,
                        VehicleStatus.STOPPED);
    }

    @Test
    void onTheRouteTheNextStopIsMeasuredAlongThePath() {
        Enrichment enrichment = observe(ROUTE, 0, 40.4025, -3.70, MOVING_KMH);

        assertThat(enrichment.status()).isEqualTo(VehicleStatus.ON_ROUTE);
        assertThat(enrichment.routeId()).isEqualTo("R-1");
        assertThat(enrichment.nextStopId()).isEqualTo("S-1");
        assertThat(enrichment.distanceToNextStopMethod()).isEqualTo(DistanceMethod.ALONG_ROUTE);
        assertThat(enrichment.distanceToNextStopM())
                .isCloseTo(TestRoutes.firstLegMetres(40.405) - TestRoutes.firstLegMetres(40.4025), offset(0.1));
        assertThat(enrichment.distanceFromRouteM()).isCloseTo(0, offset(0.01));
        assertThat(enrichment.stale()).isFalse();
    }

    @Test
    void arrivalWithinTheRadiusMakesTheFollowingStopNext() {
        observe(ROUTE, 0, 40.4025, -3.70, MOVING_KMH);
        // 45 m short of the first stop: within the 50 m radius.
        Enrichment arrived = observe(ROUTE, 30, FIRST_STOP.latitude() - 45 / 111_195.0, -3.70, MOVING_KMH);
        Enrichment after = observe(ROUTE, 60, 40.409, -3.70, MOVING_KMH);

        assertThat(arrived.nextStopId()).isEqualTo("S-2");
        assertThat(after.nextStopId()).isEqualTo("S-2");
        assertThat(after.distanceToNextStopM())
                .isCloseTo(ROUTE.stopAlongPathM()[1] - TestRoutes.firstLegMetres(40.409), offset(0.1));
        assertThat(tracker.nextStopIndex()).isEqualTo(1);
    }

    @Test
    void fiftyOneMetresAwayIsNotArrived() {
        Enrichment enrichment = observe(ROUTE, 0, FIRST_STOP.latitude() - 51 / 111_195.0, -3.70, MOVING_KMH);

        assertThat(enrichment.nextStopId()).isEqualTo("S-1");
        assertThat(enrichment.distanceToNextStopM()).isCloseTo(51, offset(0.1));
    }

    @Test
    void reachingALaterStopFirstDoesNotSkipTheNextOne() {
        Enrichment enrichment = observe(ROUTE, 0, SECOND_STOP.latitude(), SECOND_STOP.longitude(), MOVING_KMH);

        assertThat(enrichment.nextStopId()).isEqualTo("S-1");
        assertThat(enrichment.distanceToNextStopMethod()).isEqualTo(DistanceMethod.ALONG_ROUTE);
        assertThat(enrichment.distanceToNextStopM())
                .as("it drove past the stop: the way back along the path")
                .isCloseTo(ROUTE.stopAlongPathM()[1] - ROUTE.stopAlongPathM()[0], offset(0.5));
    }

    @Test
    void deviatingFromTheThirdConsecutiveFixOffTheRoute() {
        double latitude = 40.4025;
        double offRoute = -3.70 + TestRoutes.eastDegrees(300, latitude);
        List<Enrichment> enrichments = List.of(
                observe(ROUTE, 0, latitude, offRoute, MOVING_KMH),
                observe(ROUTE, 10, latitude, offRoute, MOVING_KMH),
                observe(ROUTE, 20, latitude, offRoute, MOVING_KMH),
                observe(ROUTE, 30, latitude, offRoute, MOVING_KMH),
                observe(ROUTE, 40, latitude, -3.70, MOVING_KMH),
                observe(ROUTE, 50, latitude, offRoute, MOVING_KMH));

        assertThat(enrichments)
                .extracting(Enrichment::status)
                .containsExactly(
                        VehicleStatus.ON_ROUTE,
                        VehicleStatus.ON_ROUTE,
                        VehicleStatus.DEVIATING,
                        VehicleStatus.DEVIATING,
                        VehicleStatus.ON_ROUTE,
                        VehicleStatus.ON_ROUTE);
        assertThat(enrichments.get(0).distanceFromRouteM()).isCloseTo(300, offset(0.1));
        assertThat(enrichments.get(1).distanceToNextStopMethod()).isEqualTo(DistanceMethod.ALONG_ROUTE);
        Enrichment deviating = enrichments.get(2);
        assertThat(deviating.distanceToNextStopMethod()).isEqualTo(DistanceMethod.STRAIGHT_LINE);
        assertThat(deviating.distanceToNextStopM())
                .isEqualTo(TestRoutes.metres(latitude, offRoute, FIRST_STOP.latitude(), FIRST_STOP.longitude()));
    }

    @Test
    void oneHundredAndFiftyMetresIsStillOnTheRoute() {
        double latitude = 40.4025;
        for (int i = 0; i < 5; i++) {
            observe(ROUTE, i * 10, latitude, -3.70 + TestRoutes.eastDegrees(149.9, latitude), MOVING_KMH);
        }

        assertThat(tracker.offRouteFixes()).isZero();
    }

    @Test
    void stoppedWinsOverDeviating() {
        double latitude = 40.4025;
        double offRoute = -3.70 + TestRoutes.eastDegrees(300, latitude);
        observe(ROUTE, 0, latitude, offRoute, STANDING_KMH);
        observe(ROUTE, 30, latitude, offRoute, STANDING_KMH);
        Enrichment enrichment = observe(ROUTE, 60, latitude, offRoute, STANDING_KMH);

        assertThat(enrichment.status()).isEqualTo(VehicleStatus.STOPPED);
        assertThat(enrichment.distanceToNextStopMethod()).isEqualTo(DistanceMethod.STRAIGHT_LINE);
    }

    @Test
    void anotherRouteStartsOverAtItsFirstStop() {
        observe(ROUTE, 0, FIRST_STOP.latitude(), FIRST_STOP.longitude(), MOVING_KMH);
        assertThat(tracker.nextStopIndex()).isEqualTo(1);

        Enrichment enrichment =
                observe(RouteGeometry.of(TestRoutes.route("R-2", VEHICLE)), 10, 40.4025, -3.70, MOVING_KMH);

        assertThat(enrichment.routeId()).isEqualTo("R-2");
        assertThat(enrichment.nextStopId()).isEqualTo("S-1");
        assertThat(tracker.routeId()).isEqualTo("R-2");
    }

    @Test
    void whenEveryStopIsReachedThereIsNoNextStop() {
        PlannedStop only = new PlannedStop("S-ONLY", "Only", START.latitude(), START.longitude());
        PlannedRoute oneStop = new PlannedRoute(
                "R-9",
                VEHICLE,
                TestRoutes.UPDATED_AT,
                List.of(only),
                TestRoutes.route().path());

        Enrichment enrichment = observe(RouteGeometry.of(oneStop), 0, START.latitude(), START.longitude(), MOVING_KMH);

        assertThat(enrichment.status()).isEqualTo(VehicleStatus.ON_ROUTE);
        assertThat(enrichment.nextStopId()).isNull();
        assertThat(enrichment.distanceToNextStopM()).isNull();
        assertThat(enrichment.distanceToNextStopMethod()).isNull();
        assertThat(enrichment.distanceFromRouteM()).isNotNull();
    }

    @Test
    void stopsInTheSamePlaceAreReachedTogether() {
        PlannedStop first = new PlannedStop("S-A", "A", 40.405, -3.70);
        PlannedStop second = new PlannedStop("S-B", "B", 40.405, -3.70);
        PlannedRoute twoAtOnePlace = new PlannedRoute(
                "R-8",
                VEHICLE,
                TestRoutes.UPDATED_AT,
                List.of(first, second, TestRoutes.LAST_STOP),
                TestRoutes.route().path());

        Enrichment enrichment = observe(RouteGeometry.of(twoAtOnePlace), 0, 40.405, -3.70, MOVING_KMH);

        assertThat(enrichment.nextStopId()).isEqualTo("S-3");
    }

    @Test
    void staleRouteIsUsedAndFlagged() {
        Observation observation = tracker.observe(fix(0, 40.4025, -3.70, MOVING_KMH), ROUTE, true, CONFIG);

        assertThat(observation.enrichment().stale()).isTrue();
        assertThat(observation.enrichment().routeId()).isEqualTo("R-1");
    }

    @Test
    void aLateFixIsJudgedButDoesNotMoveTheTracker() {
        observe(ROUTE, 100, 40.4025, -3.70, MOVING_KMH);
        StatusTracker before = tracker;

        Observation late = before.observe(
                fix(50, FIRST_STOP.latitude(), FIRST_STOP.longitude(), STANDING_KMH), ROUTE, false, CONFIG);

        assertThat(late.enrichment().nextStopId())
                .as("judged: it is at the first stop")
                .isEqualTo("S-2");
        assertThat(late.tracker()).isSameAs(before);
    }

    @Test
    void trackerOfARouteDropsItsProgressWhenTheRouteIsGone() {
        observe(ROUTE, 0, FIRST_STOP.latitude(), FIRST_STOP.longitude(), MOVING_KMH);

        observe(null, 10, 40.4025, -3.70, MOVING_KMH);

        assertThat(tracker).isEqualTo(new StatusTracker(null, 0, null, 0, T0.plusSeconds(10)));
    }

    private Enrichment observe(RouteGeometry route, long seconds, double latitude, double longitude, double speed) {
        Observation observation = tracker.observe(fix(seconds, latitude, longitude, speed), route, false, CONFIG);
        tracker = observation.tracker();
        return observation.enrichment();
    }

    private static Position fix(long seconds, double latitude, double longitude, double speed) {
        return Position.of(VEHICLE, T0.plusSeconds(seconds), latitude, longitude, speed, 0);
    }
}
