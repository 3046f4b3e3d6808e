package io.fleetlake.model.geo;

import static java.util.Objects.requireNonNull;

/**
 * Distances on a spherical Earth of the IUGG mean radius: the one haversine of the project. The validation's jump
 * check, the enrichment, {@code fleet.vehicle_minutes} (the pipeline's windows and the backfill's SQL), the daily
 * summary and the simulator all measure with it, so that their figures agree; good to about 0.5 % against the
 * ellipsoid, well below GPS accuracy over the distances between fixes.
 */
public final class GreatCircle {
    /** The IUGG mean Earth radius in metres. */
    public static final double EARTH_RADIUS_METRES = 6_371_008.8;

    /** The IUGG mean Earth radius in kilometres. */
    public static final double EARTH_RADIUS_KM = EARTH_RADIUS_METRES / 1000;

    /** The length of one degree of latitude (and of longitude at the equator). */
    public static final double KILOMETRES_PER_DEGREE = Math.PI * EARTH_RADIUS_KM / 180;

    private GreatCircle() {}

    /** Haversine distance in metres between two WGS84 points given in degrees. */
    public static double distanceMetres(
            double fromLatitude, double fromLongitude, double toLatitude, double toLongitude) {
        double fromLatitudeRadians = Math.toRadians(fromLatitude);
        double toLatitudeRadians = Math.toRadians(toLatitude);
        double sinHalfLatitude = Math.sin((toLatitudeRadians - fromLatitudeRadians) / 2);
        double sinHalfLongitude = Math.sin((Math.toRadians(toLongitude) - Math.toRadians(fromLongitude)) / 2);
        double haversine = sinHalfLatitude * sinHalfLatitude
                + Math.cos(fromLatitudeRadians) * Math.cos(toLatitudeRadians) * sinHalfLongitude * sinHalfLongitude;
        // Rounding can push the haversine of nearly antipodal points just above 1, where asin is undefined.
        return 2 * EARTH_RADIUS_METRES * Math.asin(Math.sqrt(Math.min(1, haversine)));
    }

    /** Haversine distance in kilometres between two WGS84 points given in degrees. */
    public static double distanceKm(double fromLatitude, double fromLongitude, double toLatitude, double toLongitude) {
        return distanceMetres(fromLatitude, fromLongitude, toLatitude, toLongitude) / 1000;
    }

    /**
     * The same distance in metres as a SQL expression (Trino; standard functions only) over the four given column
     * expressions, each of them in degrees.
     */
    public static String sql(String fromLatitude, String fromLongitude, String toLatitude, String toLongitude) {
        requireNonNull(fromLatitude, "fromLatitude is null");
        requireNonNull(fromLongitude, "fromLongitude is null");
        requireNonNull(toLatitude, "toLatitude is null");
        requireNonNull(toLongitude, "toLongitude is null");
        String sinHalfLatitude = "sin((radians(" + toLatitude + ") - radians(" + fromLatitude + ")) / 2)";
        String sinHalfLongitude = "sin((radians(" + toLongitude + ") - radians(" + fromLongitude + ")) / 2)";
        return "2 * " + EARTH_RADIUS_METRES + " * asin(sqrt(least(1, " + sinHalfLatitude + " * " + sinHalfLatitude
                + " + cos(radians(" + fromLatitude + ")) * cos(radians(" + toLatitude + ")) * " + sinHalfLongitude
                + " * " + sinHalfLongitude + ")))";
    }
}
