package io.fleetlake.validation;

/** Distances on a spherical Earth; good to about 0.5 %, plenty for plausibility rules. */
public final class GreatCircle {
    /** The IUGG mean Earth radius. */
    public static final double EARTH_RADIUS_KM = 6371.0088;

    /** The length of one degree of latitude (and of longitude at the equator). */
    public static final double KILOMETRES_PER_DEGREE = Math.PI * EARTH_RADIUS_KM / 180;

    private GreatCircle() {}

    /** Haversine distance in kilometres between two WGS84 points given in degrees. */
    public static double distanceKm(double fromLatitude, double fromLongitude, double toLatitude, double toLongitude) {
        double fromLatitudeRadians = Math.toRadians(fromLatitude);
        double toLatitudeRadians = Math.toRadians(toLatitude);
        double latitudeDelta = toLatitudeRadians - fromLatitudeRadians;
        double longitudeDelta = Math.toRadians(toLongitude - fromLongitude);
        double sinHalfLatitude = Math.sin(latitudeDelta / 2);
        double sinHalfLongitude = Math.sin(longitudeDelta / 2);
        double haversine = sinHalfLatitude * sinHalfLatitude
                + Math.cos(fromLatitudeRadians) * Math.cos(toLatitudeRadians) * sinHalfLongitude * sinHalfLongitude;
        // Rounding can push the haversine of nearly antipodal points just above 1, where asin is undefined.
        return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(Math.min(1, haversine)));
    }
}
