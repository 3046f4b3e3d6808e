package io.fleetlake.simulator.geo;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A simple polygon in latitude/longitude degrees, tested with the even-odd rule. Edges are straight in the
 * latitude/longitude plane, which is adequate for a region outline whose vertices are a few kilometres apart and which
 * does not cross the antimeridian.
 *
 * @param vertices at least three corners in order; the last one connects back to the first
 */
public record GeoPolygon(List<GeoPoint> vertices) {
    public GeoPolygon {
        requireNonNull(vertices, "vertices is null");
        vertices = List.copyOf(vertices);
        if (vertices.size() < 3) {
            throw new IllegalArgumentException("A polygon needs at least three vertices, got " + vertices.size());
        }
    }

    /** A polygon from alternating latitude and longitude values. */
    public static GeoPolygon of(double... latitudeLongitudePairs) {
        if (latitudeLongitudePairs.length % 2 != 0) {
            throw new IllegalArgumentException("Coordinates must come in latitude, longitude pairs");
        }
        GeoPoint[] points = new GeoPoint[latitudeLongitudePairs.length / 2];
        for (int i = 0; i < points.length; i++) {
            points[i] = new GeoPoint(latitudeLongitudePairs[2 * i], latitudeLongitudePairs[2 * i + 1]);
        }
        return new GeoPolygon(List.of(points));
    }

    public boolean contains(GeoPoint point) {
        boolean inside = false;
        int count = vertices.size();
        for (int i = 0, previous = count - 1; i < count; previous = i++) {
            GeoPoint current = vertices.get(i);
            GeoPoint before = vertices.get(previous);
            boolean crossesLatitude = (current.latitude() > point.latitude()) != (before.latitude() > point.latitude());
            if (crossesLatitude) {
                double longitudeAtLatitude = (before.longitude() - current.longitude())
                                * (point.latitude() - current.latitude())
                                / (before.latitude() - current.latitude())
                        + current.longitude();
                if (point.longitude() < longitudeAtLatitude) {
                    inside = !inside;
                }
            }
        }
        return inside;
    }
}
