package io.fleetlake.model;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * One GPS fix of one vehicle, independent of how the device encoded it. Optional measurements are {@code null} when the
 * device did not report them.
 *
 * @param vehicleId fleet-wide vehicle identifier
 * @param eventTime when the device took the fix
 * @param latitude WGS84 degrees
 * @param longitude WGS84 degrees
 * @param speedKmh ground speed in km/h
 * @param headingDeg course over ground, degrees clockwise from north
 * @param altitudeM metres above sea level, or null
 * @param accuracyM estimated horizontal accuracy in metres, or null
 * @param satellites satellites used in the fix, or null
 * @param batteryLevel device battery charge in percent, or null (firmware before 2.x does not report it)
 */
public record Position(
        String vehicleId,
        Instant eventTime,
        double latitude,
        double longitude,
        double speedKmh,
        double headingDeg,
        Double altitudeM,
        Double accuracyM,
        Integer satellites,
        Double batteryLevel) {
    public Position {
        requireNonNull(vehicleId, "vehicleId is null");
        requireNonNull(eventTime, "eventTime is null");
    }

    /** This fix at another event time, every measurement kept. */
    public Position withEventTime(Instant otherEventTime) {
        return new Position(
                vehicleId,
                otherEventTime,
                latitude,
                longitude,
                speedKmh,
                headingDeg,
                altitudeM,
                accuracyM,
                satellites,
                batteryLevel);
    }

    /** A fix with only the mandatory measurements. */
    public static Position of(
            String vehicleId,
            Instant eventTime,
            double latitude,
            double longitude,
            double speedKmh,
            double headingDeg) {
        return new Position(vehicleId, eventTime, latitude, longitude, speedKmh, headingDeg, null, null, null, null);
    }

    /** The same fix with another battery level (null: not reported, as a firmware 1.x device sends it). */
    public Position withBatteryLevel(Double level) {
        return new Position(
                vehicleId,
                eventTime,
                latitude,
                longitude,
                speedKmh,
                headingDeg,
                altitudeM,
                accuracyM,
                satellites,
                level);
    }
}
