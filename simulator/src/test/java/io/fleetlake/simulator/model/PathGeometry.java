package io.fleetlake.simulator.model;

import io.fleetlake.model.geo.GreatCircle;
import io.fleetlake.simulator.geo.GeoPoint;
import java.util.List;

/** Distances between points and paths, for assertions. */
final class PathGeometry {
    private PathGeometry() {}

    /** The shortest distance from a point to a polyline of great-circle segments. */
    static double distanceToPathMeters(GeoPoint point, List<GeoPoint> path) {
        double radius = GreatCircle.EARTH_RADIUS_METRES;
        double best = Double.MAX_VALUE;
        for (int i = 1; i < path.size(); i++) {
            GeoPoint start = path.get(i - 1);
            GeoPoint end = path.get(i);
            double fromStart = start.distanceMeters(point);
            best = Math.min(best, Math.min(fromStart, end.distanceMeters(point)));
            double angle = Math.toRadians(start.bearingDegrees(point) - start.bearingDegrees(end));
            if (Math.cos(angle) > 0) {
                double crossTrack = Math.asin(Math.sin(fromStart / radius) * Math.sin(angle)) * radius;
                double alongTrack = Math.acos(Math.cos(fromStart / radius) / Math.cos(crossTrack / radius)) * radius;
                if (alongTrack <= start.distanceMeters(end)) {
                    best = Math.min(best, Math.abs(crossTrack));
                }
            }
        }
        return best;
    }
}
