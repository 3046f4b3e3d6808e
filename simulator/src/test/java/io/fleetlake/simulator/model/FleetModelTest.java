package io.fleetlake.simulator.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.model.Position;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.simulator.geo.GeoPoint;
import io.fleetlake.simulator.geo.Regions;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class FleetModelTest {
    private static final Instant EPOCH = Instant.parse("2026-03-01T00:00:00Z");
    private static final Duration FIX_INTERVAL = Duration.ofSeconds(5);
    private static final RoadNetwork NETWORK = RoadNetwork.iberia();
    /** Plain driving: the kinematics below hold exactly only without detours. */
    private static final FleetPatterns PLAIN = FleetPatterns.noIncidents(Duration.ofMinutes(3));

    /** Consecutive fixes of 40 vehicles over 2 hours: about 57,000 pairs, shared by the kinematics tests. */
    private static final List<FixPair> FIX_PAIRS =
            fixPairs(new FleetModel(42, 40, 0.1, PLAIN, EPOCH), Duration.ofHours(2));

    private final FleetModel fleet = new FleetModel(42, 340, 0.1, PLAIN, EPOCH);

    @Test
    void vehiclesAreNumberedFromOne() {
        assertThat(fleet.vehicles()).hasSize(340);
        assertThat(fleet.vehicles().get(0).vehicleId()).isEqualTo("VH-0001");
        assertThat(fleet.vehicles().get(339).vehicleId()).isEqualTo("VH-0340");
        assertThat(fleet.vehicles()).extracting(Vehicle::index).containsExactlyElementsOf(indices(340));
    }

    @Test
    void jsonShareIsExactAndSeeded() {
        assertThat(jsonVehicles(fleet)).hasSize(34);
        assertThat(jsonVehicles(new FleetModel(42, 340, 0.1, PLAIN, EPOCH))).isEqualTo(jsonVehicles(fleet));
        assertThat(jsonVehicles(new FleetModel(43, 340, 0.1, PLAIN, EPOCH)))
                .hasSize(34)
                .isNotEqualTo(jsonVehicles(fleet));
        assertThat(jsonVehicles(new FleetModel(42, 340, 0, PLAIN, EPOCH))).isEmpty();
        assertThat(jsonVehicles(new FleetModel(42, 340, 1, PLAIN, EPOCH))).hasSize(340);
    }

    @Test
    void sameSeedGivesSamePositionsWhateverTheOrderOfQuestions() {
        FleetModel first = new FleetModel(42, 60, 0.1, PLAIN, EPOCH);
        FleetModel second = new FleetModel(42, 60, 0.1, PLAIN, EPOCH);
        List<Instant> times = new ArrayList<>();
        for (int minute = 0; minute <= 6 * 60; minute += 17) {
            times.add(EPOCH.plus(Duration.ofMinutes(minute)).plusMillis(minute * 7L));
        }

        Map<String, Position> forwards = new HashMap<>();
        for (Vehicle vehicle : first.vehicles()) {
            for (Instant time : times) {
                forwards.put(vehicle.vehicleId() + "@" + time, first.position(vehicle, time));
            }
        }
        Map<String, Position> backwards = new HashMap<>();
        for (int t = times.size() - 1; t >= 0; t--) {
            for (Vehicle vehicle : second.vehicles()) {
                Instant time = times.get(t);
                backwards.put(vehicle.vehicleId() + "@" + time, second.position(vehicle, time));
            }
        }

        assertThat(backwards).isEqualTo(forwards);
    }

    @Test
    void differentSeedGivesDifferentJourneys() {
        FleetModel other = new FleetModel(7, 340, 0.1, PLAIN, EPOCH);
        Instant time = EPOCH.plus(Duration.ofHours(3));

        long samePlace = fleet.vehicles().stream()
                .filter(vehicle -> fleet.position(vehicle, time).latitude()
                        == other.position(other.vehicles().get(vehicle.index()), time)
                                .latitude())
                .count();

        assertThat(samePlace).isLessThan(10);
    }

    @Test
    void everyFixLiesInsideMainlandIberia() {
        List<Position> outside = new ArrayList<>();
        int checked = 0;
        for (Vehicle vehicle : fleet.vehicles()) {
            for (Instant time = EPOCH; time.isBefore(EPOCH.plus(Duration.ofHours(24))); time = time.plusSeconds(120)) {
                Position position = fleet.position(vehicle, time);
                if (!Regions.IBERIA_MAINLAND.contains(new GeoPoint(position.latitude(), position.longitude()))) {
                    outside.add(position);
                }
                checked++;
            }
        }
        assertThat(outside).isEmpty();
        assertThat(checked).isEqualTo(340 * 720);
    }

    @Test
    void impliedSpeedBetweenFixesMatchesReportedSpeed() {
        List<FixPair> tooFast = new ArrayList<>();
        List<FixPair> offSpeedOnOneSegment = new ArrayList<>();
        int moving = 0;
        int close = 0;
        for (FixPair pair : FIX_PAIRS) {
            double implied = pair.impliedSpeedKmh();
            // The straight line between two fixes is never longer than the path driven between them.
            if (implied > Math.max(pair.first().speedKmh(), pair.second().speedKmh()) + 0.5) {
                tooFast.add(pair);
            }
            if (pair.onOneSegment() && Math.abs(implied - pair.first().speedKmh()) > 0.5) {
                offSpeedOnOneSegment.add(pair);
            }
            if (pair.first().speedKmh() > 0 && pair.second().speedKmh() > 0) {
                moving++;
                close += Math.abs(implied - pair.second().speedKmh()) < 2 ? 1 : 0;
            }
        }
        assertThat(tooFast).isEmpty();
        assertThat(offSpeedOnOneSegment).isEmpty();
        assertThat(moving).isGreaterThan(30_000);
        assertThat((double) close / moving).isGreaterThan(0.95);
    }

    @Test
    void headingsMatchTheBearingBetweenFixes() {
        List<FixPair> offCourse = new ArrayList<>();
        int checked = 0;
        for (FixPair pair : FIX_PAIRS) {
            if (pair.first().speedKmh() == 0 || pair.second().speedKmh() == 0 || pair.distanceMeters() < 20) {
                continue;
            }
            double bearing = pair.bearingDegrees();
            double first = pair.first().headingDeg();
            double second = pair.second().headingDeg();
            boolean offSegment = pair.onOneSegment() && GeoPoint.headingDifference(bearing, first) > 1.0;
            // Across a corner the chord points between the course before and the course after it.
            boolean outsideTurn =
                    GeoPoint.headingDifference(bearing, first) + GeoPoint.headingDifference(bearing, second)
                            > GeoPoint.headingDifference(first, second) + 2.0;
            if (offSegment || outsideTurn) {
                offCourse.add(pair);
            }
            checked++;
        }
        assertThat(offCourse).isEmpty();
        assertThat(checked).isGreaterThan(30_000);
    }

    @Test
    void speedsArePlausibleWithUrbanSpeedsInTownAndOccasionalStops() {
        List<Position> implausible = new ArrayList<>();
        int fixes = 0;
        int stopped = 0;
        int fast = 0;
        for (Vehicle vehicle : fleet.vehicles()) {
            for (Instant time = EPOCH; time.isBefore(EPOCH.plus(Duration.ofHours(6))); time = time.plusSeconds(60)) {
                Position position = fleet.position(vehicle, time);
                double speed = position.speedKmh();
                boolean inTown = nearestCityMeters(new GeoPoint(position.latitude(), position.longitude())) < 4_000;
                if (speed < 0
                        || speed > TripPlanner.MAXIMUM_ROAD_SPEED_KMH
                        || (inTown && speed > TripPlanner.MAXIMUM_URBAN_SPEED_KMH)) {
                    implausible.add(position);
                }
                fixes++;
                stopped += speed == 0 ? 1 : 0;
                fast += speed >= TripPlanner.MINIMUM_ROAD_SPEED_KMH ? 1 : 0;
            }
        }
        assertThat(implausible).isEmpty();
        assertThat((double) stopped / fixes).isBetween(0.05, 0.5);
        assertThat((double) fast / fixes).isGreaterThan(0.4);
    }

    @Test
    void routesAreOrderedStopsAlongRoadsAndTheVehicleFollowsThePath() {
        for (Vehicle vehicle : fleet.vehicles().subList(0, 40)) {
            Instant time = EPOCH.plus(Duration.ofMinutes(vehicle.index() * 13L));
            Route route = fleet.route(vehicle, time);

            assertThat(route.vehicleId()).isEqualTo(vehicle.vehicleId());
            String departureDay = DateTimeFormatter.BASIC_ISO_DATE.format(
                    route.departure().atOffset(ZoneOffset.UTC).toLocalDate());
            assertThat(route.routeId()).matches(vehicle.vehicleId() + "-" + departureDay + "-[1-9][0-9]*");
            assertThat(route.departure()).isBeforeOrEqualTo(time);
            assertThat(route.origin().dwell()).isZero();
            for (int i = 1; i < route.stops().size(); i++) {
                City from = NETWORK.city(route.stops().get(i - 1).name());
                City to = NETWORK.city(route.stops().get(i).name());
                assertThat(NETWORK.roadsFrom(from)).extracting(Road::to).contains(to);
                assertThat(route.stops().get(i).dwell()).isPositive();
            }
            VehicleMotion state = fleet.state(vehicle, time);
            assertThat(PathGeometry.distanceToPathMeters(state.location(), route.path()))
                    .as(vehicle.vehicleId())
                    .isLessThan(0.5);
        }
    }

    @Test
    void consecutiveRoutesContinueWhereThePreviousEnded() {
        Vehicle vehicle = fleet.vehicles().get(3);
        Route previous = fleet.route(vehicle, EPOCH);
        int changes = 0;
        for (Instant time = EPOCH; time.isBefore(EPOCH.plus(Duration.ofHours(24))); time = time.plusSeconds(60)) {
            Route route = fleet.route(vehicle, time);
            if (!route.equals(previous)) {
                assertThat(route.origin().name())
                        .isEqualTo(previous.destination().name());
                previous = route;
                changes++;
            }
        }
        assertThat(changes).isGreaterThan(2);
    }

    @Test
    void fixesCarryPlausibleMeasurements() {
        for (Vehicle vehicle : fleet.vehicles()) {
            Position position = fleet.position(vehicle, EPOCH.plusSeconds(vehicle.index()));
            assertThat(position.vehicleId()).isEqualTo(vehicle.vehicleId());
            assertThat(position.eventTime()).isEqualTo(EPOCH.plusSeconds(vehicle.index()));
            assertThat(position.altitudeM()).isBetween(0.0, 900.0);
            assertThat(position.accuracyM()).isBetween(3.0, 9.0);
            assertThat(position.satellites()).isBetween(6, 14);
            assertThat(position.headingDeg()).isGreaterThanOrEqualTo(0.0).isLessThan(360.0);
        }
    }

    @Test
    void rejectsTimesBeforeTheEpochAndForeignVehicles() {
        Vehicle vehicle = fleet.vehicles().get(0);

        assertThatThrownBy(() -> fleet.position(vehicle, EPOCH.minusMillis(1)))
                .hasMessageContaining("starts at 2026-03-01T00:00:00Z");
        assertThatThrownBy(() -> fleet.position(new Vehicle(500, "VH-0501", PayloadFormat.AVRO, 1), EPOCH))
                .hasMessageContaining("VH-0501 is not part of this fleet");
        assertThatThrownBy(() -> new FleetModel(42, 0, 0.1, PLAIN, EPOCH)).hasMessageContaining("at least one vehicle");
        assertThatThrownBy(() -> new FleetModel(42, 10, 1.5, PLAIN, EPOCH)).hasMessageContaining("between 0 and 1");
    }

    @Test
    void forgetsTripsLongBeforeTheLatestQuestion() {
        Vehicle vehicle = fleet.vehicles().get(0);
        fleet.position(vehicle, EPOCH.plus(Duration.ofDays(7)));

        assertThatThrownBy(() -> fleet.position(vehicle, EPOCH)).hasMessageContaining("no longer keeps its trips");
    }

    private static List<Integer> indices(int count) {
        List<Integer> indices = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            indices.add(i);
        }
        return indices;
    }

    private static Set<String> jsonVehicles(FleetModel model) {
        return model.vehicles().stream()
                .filter(vehicle -> vehicle.payloadFormat() == PayloadFormat.JSON)
                .map(Vehicle::vehicleId)
                .collect(Collectors.toSet());
    }

    /** Consecutive fixes of every vehicle, one fix interval apart, over a span. */
    private static List<FixPair> fixPairs(FleetModel model, Duration span) {
        List<FixPair> pairs = new ArrayList<>();
        for (Vehicle vehicle : model.vehicles()) {
            Instant time = EPOCH.plusMillis(vehicle.index() * 37L);
            Position previous = model.position(vehicle, time);
            VehicleMotion previousState = model.state(vehicle, time);
            for (Instant end = time.plus(span); time.isBefore(end); ) {
                time = time.plus(FIX_INTERVAL);
                Position current = model.position(vehicle, time);
                VehicleMotion currentState = model.state(vehicle, time);
                boolean oneSegment = previousState.speedKmh() > 0
                        && currentState.speedKmh() > 0
                        && previousState.speedKmh() == currentState.speedKmh()
                        && previousState.headingDegrees() == currentState.headingDegrees();
                pairs.add(new FixPair(previous, current, oneSegment));
                previous = current;
                previousState = currentState;
            }
        }
        return pairs;
    }

    private static double nearestCityMeters(GeoPoint location) {
        return NETWORK.cities().stream()
                .mapToDouble(city -> city.location().distanceMeters(location))
                .min()
                .orElseThrow();
    }

    /**
     * Two consecutive fixes of one vehicle.
     *
     * @param onOneSegment whether the vehicle drove one straight segment at one speed between them
     */
    private record FixPair(Position first, Position second, boolean onOneSegment) {
        double distanceMeters() {
            return point(first).distanceMeters(point(second));
        }

        double bearingDegrees() {
            return point(first).bearingDegrees(point(second));
        }

        double impliedSpeedKmh() {
            double seconds =
                    Duration.between(first.eventTime(), second.eventTime()).toMillis() / 1000.0;
            return distanceMeters() / seconds * 3.6;
        }

        private static GeoPoint point(Position position) {
            return new GeoPoint(position.latitude(), position.longitude());
        }
    }
}
