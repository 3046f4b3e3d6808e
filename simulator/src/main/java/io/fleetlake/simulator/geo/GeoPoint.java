package io.fleetlake.simulator.geo;

import io.fleetlake.model.geo.GreatCircle;

/**
 * A WGS84 position. Distances, bearings and interpolation treat the Earth as a sphere of mean radius: over the few
 * kilometres between two fixes or two waypoints the error against the ellipsoid is well below GPS accuracy.
 *
 * @param latitude degrees, -90 to 90
 * @param longitude degrees, -180 to 180
 */
public record GeoPoint(double latitude, double longitude) {
    public GeoPoint {
        if (!Double.isFinite(latitude) || latitude < -90 || latitude > 90) {
            throw new IllegalArgumentException("Latitude must be between -90 and 90 degrees, got " + latitude);
        }
        if (!Double.isFinite(longitude) || longitude < -180 || longitude > 180) {
            throw new IllegalArgumentException("Longitude must be between -180 and 180 degrees, got " + longitude);
        }
    }

    /** Great-circle distance ({@link GreatCircle}, the pipeline's haversine). */
    public double distanceMeters(GeoPoint other) {
        return GreatCircle.distanceMetres(latitude, longitude, other.latitude, other.longitude);
    }

    /** Initial great-circle bearing towards {@code other}, degrees clockwise from north in [0, 360). */
    public double bearingDegrees(GeoPoint other) {
        double latitude1 = Math.toRadians(latitude);
        double latitude2 = Math.toRadians(other.latitude);
        double deltaLongitude = Math.toRadians(other.longitude - longitude);
        double y = Math.sin(deltaLongitude) * Math.cos(latitude2);
        double x = Math.cos(latitude1) * Math.sin(latitude2)
                - Math.sin(latitude1) * Math.cos(latitude2) * Math.cos(deltaLongitude);
        return normalizeDegrees(Math.toDegrees(Math.atan2(y, x)));
    }

    /** The point at {@code fraction} (0 = this, 1 = other) of the great circle between this point and another. */
    public GeoPoint interpolate(GeoPoint other, double fraction) {
        if (fraction < 0 || fraction > 1) {
            throw new IllegalArgumentException("Fraction must be between 0 and 1, got " + fraction);
        }
        double angularDistance = distanceMeters(other) / GreatCircle.EARTH_RADIUS_METRES;
        if (angularDistance < 1e-12) {
            return this;
        }
        double weight1 = Math.sin((1 - fraction) * angularDistance) / Math.sin(angularDistance);
        double weight2 = Math.sin(fraction * angularDistance) / Math.sin(angularDistance);
        double latitude1 = Math.toRadians(latitude);
        double longitude1 = Math.toRadians(longitude);
        double latitude2 = Math.toRadians(other.latitude);
        double longitude2 = Math.toRadians(other.longitude);
        double x = weight1 * Math.cos(latitude1) * Math.cos(longitude1)
                + weight2 * Math.cos(latitude2) * Math.cos(longitude2);
        double y = weight1 * Math.cos(latitude1) * Math.sin(longitude1)
                + weight2 * Math.cos(latitude2) * Math.sin(longitude2);
        double z = weight1 * Math.sin(latitude1) + weight2 * Math.sin(latitude2);
        return new GeoPoint(Math.toDegrees(Math.atan2(z, Math.hypot(x, y))), Math.toDegrees(Math.atan2(y, x)));
    }

    /** The point reached by travelling {@code distanceMeters} along the great circle with the given initial bearing. */
    public GeoPoint offset(double bearingDegrees, double distanceMeters) {
        double angularDistance = distanceMeters / GreatCircle.EARTH_RADIUS_METRES;
        double bearing = Math.toRadians(bearingDegrees);
        double latitude1 = Math.toRadians(latitude);
        double longitude1 = Math.toRadians(longitude);
        double latitude2 = Math.asin(Math.sin(latitude1) * Math.cos(angularDistance)
                + Math.cos(latitude1) * Math.sin(angularDistance) * Math.cos(bearing));
        double longitude2 = longitude1
                + Math.atan2(
                        Math.sin(bearing) * Math.sin(angularDistance) * Math.cos(latitude1),
                        Math.cos(angularDistance) - Math.sin(latitude1) * Math.sin(latitude2));
        double longitudeDegrees = Math.toDegrees(longitude2);
        return new GeoPoint(Math.toDegrees(latitude2), ((longitudeDegrees + 540) % 360) - 180);
    }

    /** An angle in degrees mapped into [0, 360). */
    public static double normalizeDegrees(double degrees) {
        double normalized = degrees % 360;
        return normalized < 0 ? normalized + 360 : normalized;
    }

    /** The absolute difference between two headings, in [0, 180]. */
    public static double headingDifference(double firstDegrees, double secondDegrees) {
        double difference = Math.abs(normalizeDegrees(firstDegrees) - normalizeDegrees(secondDegrees));
        return difference > 180 ? 360 - difference : difference;
    }
}
