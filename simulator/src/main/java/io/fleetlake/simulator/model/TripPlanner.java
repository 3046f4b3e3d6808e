package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import io.fleetlake.simulator.geo.GeoPoint;
import io.fleetlake.simulator.model.Movement.Drive;
import io.fleetlake.simulator.model.Movement.Halt;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Plans trips on a road network: which cities a vehicle visits, the path it drives (road corners plus waypoints with a
 * little lateral noise, denser in town), how fast it drives each segment, and where it halts. All choices come from
 * the random generator handed in, so the same generator state always yields the same trip.
 */
final class TripPlanner {
    /** Within this distance of a city centre a vehicle drives at urban speed. */
    static final double URBAN_RADIUS_METERS = 5_000;

    static final double MINIMUM_URBAN_SPEED_KMH = 20;
    static final double MAXIMUM_URBAN_SPEED_KMH = 50;
    static final double MINIMUM_ROAD_SPEED_KMH = 60;
    static final double MAXIMUM_ROAD_SPEED_KMH = 110;

    private static final double URBAN_WAYPOINT_SPACING_METERS = 1_000;
    private static final double ROAD_WAYPOINT_SPACING_METERS = 12_000;
    private static final double MINIMUM_WAYPOINT_GAP_METERS = 200;
    private static final double URBAN_LATERAL_NOISE_METERS = 250;
    private static final double ROAD_LATERAL_NOISE_METERS = 1_000;
    /** How far the speed of one road segment strays from the leg's cruising speed. */
    private static final double ROAD_SPEED_VARIATION_KMH = 8;

    private static final int MAXIMUM_LEGS = 3;
    private static final double TRAFFIC_HALT_PROBABILITY = 0.2;
    private static final Duration MINIMUM_TRAFFIC_HALT = Duration.ofSeconds(10);
    private static final Duration MAXIMUM_TRAFFIC_HALT = Duration.ofSeconds(60);
    /** Legs with at least this much road (outside towns) may include a rest break. */
    private static final double REST_BREAK_ROAD_METERS = 100_000;

    private static final double REST_BREAK_PROBABILITY = 0.5;
    private static final Duration MINIMUM_REST_BREAK = Duration.ofMinutes(10);
    private static final Duration MAXIMUM_REST_BREAK = Duration.ofMinutes(25);
    /** A stop lasts between these fractions of the delivery stop duration. */
    static final double MINIMUM_DWELL_FACTOR = 0.8;

    static final double MAXIMUM_DWELL_FACTOR = 1.2;

    private final RoadNetwork network;
    private final Duration deliveryStopDuration;

    /**
     * @param deliveryStopDuration about how long a vehicle halts at each stop after its departure; zero drives through
     */
    TripPlanner(RoadNetwork network, Duration deliveryStopDuration) {
        this.network = requireNonNull(network, "network is null");
        this.deliveryStopDuration = requireNonNull(deliveryStopDuration, "deliveryStopDuration is null");
        if (deliveryStopDuration.isNegative()) {
            throw new IllegalArgumentException("The delivery stop duration is negative: " + deliveryStopDuration);
        }
    }

    /**
     * Plans the next trip of a vehicle.
     *
     * @param routeId identifier of the new route
     * @param vehicleId the vehicle
     * @param origin where the vehicle stands
     * @param previous the city it came from, which it avoids driving straight back to when it has another choice
     * @param startMillis epoch milliseconds of departure
     * @param heading course of the vehicle while it waits for departure
     * @param random the vehicle's generator; consumed in a fixed order
     */
    Trip plan(
            String routeId,
            String vehicleId,
            City origin,
            Optional<City> previous,
            long startMillis,
            double heading,
            SplittableRandom random) {
        List<Road> roads = chooseRoads(origin, previous, random);
        List<Stop> stops = new ArrayList<>();
        stops.add(new Stop(origin.name(), origin.location(), Duration.ZERO));
        List<GeoPoint> path = new ArrayList<>(List.of(origin.location()));
        Timetable timetable = new Timetable(startMillis, heading);
        for (int leg = 0; leg < roads.size(); leg++) {
            Road road = roads.get(leg);
            List<Waypoint> waypoints = waypoints(road, random);
            drive(waypoints, road, timetable, random);
            Duration dwell = dwell(random);
            City arrival = road.to();
            if (!dwell.isZero()) {
                timetable.halt(arrival.location(), arrival.elevationMeters(), dwell);
            }
            stops.add(new Stop(arrival.name(), arrival.location(), dwell));
            waypoints.subList(1, waypoints.size()).forEach(waypoint -> path.add(waypoint.location()));
        }
        List<City> cities = new ArrayList<>(List.of(origin));
        roads.forEach(road -> cities.add(road.to()));
        return new Trip(
                new Route(routeId, vehicleId, Instant.ofEpochMilli(startMillis), stops, path),
                cities,
                timetable.movements);
    }

    /**
     * How long the vehicle halts at a stop. The generator is consumed whatever the duration, so that the cities and
     * paths of a vehicle's trips do not depend on it.
     */
    private Duration dwell(SplittableRandom random) {
        double factor = MINIMUM_DWELL_FACTOR + random.nextDouble() * (MAXIMUM_DWELL_FACTOR - MINIMUM_DWELL_FACTOR);
        return Duration.ofMillis(Math.round(deliveryStopDuration.toMillis() * factor));
    }

    private List<Road> chooseRoads(City origin, Optional<City> previous, SplittableRandom random) {
        int legs = 1 + random.nextInt(MAXIMUM_LEGS);
        List<Road> chosen = new ArrayList<>();
        Set<City> visited = new HashSet<>(List.of(origin));
        City current = origin;
        Optional<City> cameFrom = previous;
        for (int leg = 0; leg < legs; leg++) {
            List<Road> candidates = new ArrayList<>();
            for (Road road : network.roadsFrom(current)) {
                if (!visited.contains(road.to()) && !cameFrom.equals(Optional.of(road.to()))) {
                    candidates.add(road);
                }
            }
            if (candidates.isEmpty()) {
                // A dead end: turning back is the only way on.
                candidates.addAll(network.roadsFrom(current));
            }
            Road road = candidates.get(random.nextInt(candidates.size()));
            chosen.add(road);
            visited.add(road.to());
            cameFrom = Optional.of(current);
            current = road.to();
        }
        return chosen;
    }

    /** Points along the road: every corner, dense in town and sparse on the open road, with lateral noise. */
    private static List<Waypoint> waypoints(Road road, SplittableRandom random) {
        List<GeoPoint> corners = road.corners();
        double[] cornerDistances = new double[corners.size()];
        for (int i = 1; i < corners.size(); i++) {
            cornerDistances[i] = cornerDistances[i - 1] + corners.get(i - 1).distanceMeters(corners.get(i));
        }
        double length = cornerDistances[corners.size() - 1];
        double urbanLength = Math.min(URBAN_RADIUS_METERS, length / 2);
        TreeSet<Double> distances = sampleDistances(cornerDistances, urbanLength);

        List<Waypoint> waypoints = new ArrayList<>();
        waypoints.add(new Waypoint(road.from().location(), road.from().elevationMeters(), true));
        double previous = 0;
        for (double distance : distances) {
            if (distance - previous < MINIMUM_WAYPOINT_GAP_METERS || length - distance < MINIMUM_WAYPOINT_GAP_METERS) {
                continue;
            }
            int corner = 0;
            while (corner < corners.size() - 2 && cornerDistances[corner + 1] < distance) {
                corner++;
            }
            GeoPoint start = corners.get(corner);
            GeoPoint end = corners.get(corner + 1);
            double fraction =
                    (distance - cornerDistances[corner]) / (cornerDistances[corner + 1] - cornerDistances[corner]);
            GeoPoint onRoad = start.interpolate(end, Math.min(1, Math.max(0, fraction)));
            boolean urban = distance < urbanLength || distance > length - urbanLength;
            double noise =
                    (urban ? URBAN_LATERAL_NOISE_METERS : ROAD_LATERAL_NOISE_METERS) * (2 * random.nextDouble() - 1);
            GeoPoint location = onRoad.offset(start.bearingDegrees(end) + 90, noise);
            double elevation = road.from().elevationMeters()
                    + (road.to().elevationMeters() - road.from().elevationMeters()) * distance / length;
            double middle = (previous + distance) / 2;
            waypoints.add(new Waypoint(location, elevation, middle < urbanLength || middle > length - urbanLength));
            previous = distance;
        }
        double middle = (previous + length) / 2;
        waypoints.add(new Waypoint(
                road.to().location(),
                road.to().elevationMeters(),
                middle < urbanLength || middle > length - urbanLength));
        return waypoints;
    }

    /** Distances along the road at which to place waypoints, in order. */
    private static TreeSet<Double> sampleDistances(double[] cornerDistances, double urbanLength) {
        double length = cornerDistances[cornerDistances.length - 1];
        TreeSet<Double> distances = new TreeSet<>();
        for (double distance = URBAN_WAYPOINT_SPACING_METERS;
                distance < urbanLength;
                distance += URBAN_WAYPOINT_SPACING_METERS) {
            distances.add(distance);
            distances.add(length - distance);
        }
        double roadLength = length - 2 * urbanLength;
        int roadSegments = Math.max(1, (int) Math.ceil(roadLength / ROAD_WAYPOINT_SPACING_METERS));
        for (int segment = 0; segment <= roadSegments; segment++) {
            distances.add(urbanLength + roadLength * segment / roadSegments);
        }
        for (int i = 1; i < cornerDistances.length - 1; i++) {
            distances.add(cornerDistances[i]);
        }
        return distances;
    }

    /** Drives from the first waypoint to the last, with traffic halts in town and maybe one rest break. */
    private static void drive(List<Waypoint> waypoints, Road road, Timetable timetable, SplittableRandom random) {
        double cruiseKmh = MINIMUM_ROAD_SPEED_KMH
                + ROAD_SPEED_VARIATION_KMH
                + random.nextDouble()
                        * (MAXIMUM_ROAD_SPEED_KMH - MINIMUM_ROAD_SPEED_KMH - 2 * ROAD_SPEED_VARIATION_KMH);
        int restBreakBefore = restBreakWaypoint(waypoints, road, random);
        for (int i = 1; i < waypoints.size(); i++) {
            Waypoint from = waypoints.get(i - 1);
            Waypoint to = waypoints.get(i);
            if (i == restBreakBefore) {
                timetable.halt(
                        from.location(),
                        from.elevationMeters(),
                        between(MINIMUM_REST_BREAK, MAXIMUM_REST_BREAK, random));
            } else if (to.urban() && i > 1 && random.nextDouble() < TRAFFIC_HALT_PROBABILITY) {
                timetable.halt(
                        from.location(),
                        from.elevationMeters(),
                        between(MINIMUM_TRAFFIC_HALT, MAXIMUM_TRAFFIC_HALT, random));
            }
            double speedKmh = to.urban()
                    ? MINIMUM_URBAN_SPEED_KMH
                            + random.nextDouble() * (MAXIMUM_URBAN_SPEED_KMH - MINIMUM_URBAN_SPEED_KMH)
                    : cruiseKmh + ROAD_SPEED_VARIATION_KMH * (2 * random.nextDouble() - 1);
            timetable.drive(from, to, speedKmh);
        }
    }

    /** The index of the road waypoint before which the driver rests, or -1 for no break. */
    private static int restBreakWaypoint(List<Waypoint> waypoints, Road road, SplittableRandom random) {
        double roadMeters = road.lengthMeters() - 2 * URBAN_RADIUS_METERS;
        if (roadMeters < REST_BREAK_ROAD_METERS || random.nextDouble() >= REST_BREAK_PROBABILITY) {
            return -1;
        }
        int third = waypoints.size() / 3;
        return third + random.nextInt(Math.max(1, third));
    }

    private static Duration between(Duration minimum, Duration maximum, SplittableRandom random) {
        return Duration.ofMillis(random.nextLong(minimum.toMillis(), maximum.toMillis() + 1));
    }

    /**
     * A point of the driven path.
     *
     * @param urban whether the segment that ends here is in town
     */
    private record Waypoint(GeoPoint location, double elevationMeters, boolean urban) {}

    /** Movements appended one after the other, with the time and course reached so far. */
    private static final class Timetable {
        private final List<Movement> movements = new ArrayList<>();
        private long nowMillis;
        private double headingDegrees;

        Timetable(long startMillis, double headingDegrees) {
            this.nowMillis = startMillis;
            this.headingDegrees = headingDegrees;
        }

        void halt(GeoPoint location, double elevationMeters, Duration duration) {
            long end = nowMillis + Math.max(1, duration.toMillis());
            movements.add(new Halt(location, elevationMeters, headingDegrees, nowMillis, end));
            nowMillis = end;
        }

        void drive(Waypoint from, Waypoint to, double speedKmh) {
            double meters = from.location().distanceMeters(to.location());
            long millis = Math.max(1, Math.round(meters / (speedKmh / 3.6) * 1000));
            Drive drive = new Drive(
                    from.location(),
                    to.location(),
                    from.elevationMeters(),
                    to.elevationMeters(),
                    speedKmh,
                    nowMillis,
                    nowMillis + millis);
            movements.add(drive);
            nowMillis = drive.endMillis();
            headingDegrees = drive.headingDegrees();
        }
    }
}
