package io.fleetlake.flink.enrichment;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.geo.GreatCircle;
import io.fleetlake.model.planning.PlannedRoute;
import io.fleetlake.model.planning.PlannedStop;
import io.fleetlake.model.planning.RoutePoint;
import java.util.List;

/**
 * A planned route prepared for matching fixes to it: the along-path distance of every path vertex and of every stop,
 * computed once per route so that matching a fix costs one pass over the path's segments.
 *
 * <p><b>Distances.</b> Lengths along the path (segment lengths, hence every along-path distance) are great-circle
 * distances ({@link GreatCircle}, the same haversine as the jump check and {@code fleet.vehicle_minutes}). The closest
 * point of a segment to a fix has no closed form on the sphere, so it is found in a local equirectangular projection
 * centred on the fix ({@code x = R·Δλ·cos φ}, {@code y = R·Δφ}); over the few kilometres between two path vertices
 * its error is far below GPS accuracy (about 0.1 % at 10 km from the fix at Iberian latitudes), and it costs no
 * trigonometry per segment: a fix costs one pass over the path's segments with a few multiplications each (squared
 * distances, one square root per fix), which keeps matching cheaper than decoding the fix even for long paths. The position of the closest point along its segment is applied to the segment's
 * great-circle length. Longitudes are compared across the antimeridian correctly; the poles are out of scope.
 *
 * <p><b>Stops on the path.</b> Each stop is placed at its closest point of the path after the place of the stop before
 * it, because stops are served in delivery order: on a path that passes the same street twice (out and back from a
 * depot), a stop is placed on the leg where it is served. Where several points are equally close, the first wins.
 *
 * @param route the planned route
 * @param vertexAlongPathM for each path vertex, metres along the path from its first vertex
 * @param stopSegment for each stop, the index of the path segment it is placed on
 * @param stopAlongPathM for each stop, metres along the path to its place; never decreasing
 */
public record RouteGeometry(PlannedRoute route, double[] vertexAlongPathM, int[] stopSegment, double[] stopAlongPathM) {
    private static final double METRES_PER_DEGREE = GreatCircle.KILOMETRES_PER_DEGREE * 1000;

    public RouteGeometry {
        requireNonNull(route, "route is null");
        requireNonNull(vertexAlongPathM, "vertexAlongPathM is null");
        requireNonNull(stopSegment, "stopSegment is null");
        requireNonNull(stopAlongPathM, "stopAlongPathM is null");
        if (vertexAlongPathM.length != route.path().size()
                || stopSegment.length != route.stops().size()
                || stopAlongPathM.length != route.stops().size()) {
            throw new IllegalArgumentException("Route " + route.routeId() + ": one value per path vertex and per stop");
        }
    }

    /** Measures the path and places the stops on it. */
    public static RouteGeometry of(PlannedRoute route) {
        requireNonNull(route, "route is null");
        List<RoutePoint> path = route.path();
        double[] vertexAlongPathM = new double[path.size()];
        for (int i = 1; i < path.size(); i++) {
            RoutePoint from = path.get(i - 1);
            RoutePoint to = path.get(i);
            vertexAlongPathM[i] = vertexAlongPathM[i - 1]
                    + GreatCircle.distanceKm(from.latitude(), from.longitude(), to.latitude(), to.longitude()) * 1000;
        }
        List<PlannedStop> stops = route.stops();
        int[] stopSegment = new int[stops.size()];
        double[] stopAlongPathM = new double[stops.size()];
        RouteGeometry partial = new RouteGeometry(route, vertexAlongPathM, stopSegment, stopAlongPathM);
        int fromSegment = 0;
        double fromAlongPathM = 0;
        for (int i = 0; i < stops.size(); i++) {
            Projection place =
                    partial.project(stops.get(i).latitude(), stops.get(i).longitude(), fromSegment, fromAlongPathM);
            stopSegment[i] = place.segment();
            stopAlongPathM[i] = place.alongPathM();
            fromSegment = place.segment();
            fromAlongPathM = place.alongPathM();
        }
        return partial;
    }

    /** The closest point of the whole path to a fix. */
    public Projection project(double latitude, double longitude) {
        return project(latitude, longitude, 0, 0);
    }

    /**
     * The closest point to a fix of the part of the path after the place of stop {@code stopIndex}: where a vehicle
     * that has reached that stop is on the rest of its route.
     */
    public Projection projectAfterStop(double latitude, double longitude, int stopIndex) {
        return project(latitude, longitude, stopSegment[stopIndex], stopAlongPathM[stopIndex]);
    }

    /**
     * Matches a fix to the path in one pass over its segments.
     *
     * @param fromSegment the segment of the place from which on the fix may be placed
     * @param fromAlongPathM that place, in metres along the path
     * @return {@link Projection#distanceFromPathM} to the whole path; the fix's place ({@link Projection#alongPathM},
     *     {@link Projection#segment}) on the part of the path from the given place on, the first of equally close ones
     */
    private Projection project(double latitude, double longitude, int fromSegment, double fromAlongPathM) {
        List<RoutePoint> path = route.path();
        int segments = path.size() - 1;
        double metresPerDegreeOfLongitude = METRES_PER_DEGREE * Math.cos(Math.toRadians(latitude));
        // Squared distances in the loop (no square root, no hypot per segment); the same order, one root at the end.
        double closestToPath = Double.POSITIVE_INFINITY;
        double closestOnPart = Double.POSITIVE_INFINITY;
        double alongPathM = 0;
        int segment = fromSegment;
        RoutePoint start = path.get(0);
        double startX = longitudeDegrees(start.longitude() - longitude) * metresPerDegreeOfLongitude;
        double startY = (start.latitude() - latitude) * METRES_PER_DEGREE;
        for (int i = 0; i < segments; i++) {
            RoutePoint end = path.get(i + 1);
            double endX = longitudeDegrees(end.longitude() - longitude) * metresPerDegreeOfLongitude;
            double endY = (end.latitude() - latitude) * METRES_PER_DEGREE;
            double deltaX = endX - startX;
            double deltaY = endY - startY;
            double squaredLength = deltaX * deltaX + deltaY * deltaY;
            // The fix is the origin: the closest point is at -start·delta / |delta|², kept within the segment.
            double fraction = squaredLength == 0
                    ? 0
                    : Math.max(0, Math.min(1, -(startX * deltaX + startY * deltaY) / squaredLength));
            double squaredDistance = squared(startX + fraction * deltaX, startY + fraction * deltaY);
            closestToPath = Math.min(closestToPath, squaredDistance);
            if (i >= fromSegment) {
                double segmentLengthM = vertexAlongPathM[i + 1] - vertexAlongPathM[i];
                if (i == fromSegment && segmentLengthM > 0) {
                    // On the first segment only the part after the starting place counts.
                    double fromFraction =
                            Math.max(0, Math.min(1, (fromAlongPathM - vertexAlongPathM[i]) / segmentLengthM));
                    if (fraction < fromFraction) {
                        fraction = fromFraction;
                        squaredDistance = squared(startX + fraction * deltaX, startY + fraction * deltaY);
                    }
                }
                if (squaredDistance < closestOnPart) {
                    closestOnPart = squaredDistance;
                    segment = i;
                    alongPathM = vertexAlongPathM[i] + fraction * segmentLengthM;
                }
            }
            startX = endX;
            startY = endY;
        }
        return new Projection(Math.sqrt(closestToPath), alongPathM, segment);
    }

    private static double squared(double x, double y) {
        return x * x + y * y;
    }

    /** A longitude difference in degrees, the short way round the globe. */
    private static double longitudeDegrees(double difference) {
        if (difference > 180) {
            return difference - 360;
        }
        if (difference < -180) {
            return difference + 360;
        }
        return difference;
    }

    /**
     * Where a fix is relative to the path.
     *
     * @param distanceFromPathM metres from the fix to the closest point of the path
     * @param alongPathM metres along the path from its start to the fix's place on it
     * @param segment index of the path segment the fix is placed on (segment {@code i} joins vertices {@code i} and
     *     {@code i + 1})
     */
    public record Projection(double distanceFromPathM, double alongPathM, int segment) {}
}
