package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * What the fleet does besides driving its routes. Every pattern is seeded: the fleet model decides for each vehicle
 * where and when it happens, so the same seed gives the same incidents. A rate of zero disables a pattern.
 *
 * @param v2Share share of devices on firmware 2, which write Position schema version 2 and report their battery level;
 *     0 to 1, rounded to a whole number of devices
 * @param deliveryStopDuration about how long (0.8 to 1.2 times) a vehicle halts at each stop of its route; zero drives
 *     through the stops
 * @param deviationsPerHour detours off the planned path per vehicle-hour, 0 to {@value #MAXIMUM_DEVIATIONS_PER_HOUR}
 * @param glitchesPerHour GPS glitches (one fix far off) per vehicle-hour, 0 to {@value #MAXIMUM_GLITCHES_PER_HOUR}
 * @param garageOutagesPerHour garage outages (the device is offline and buffers its fixes) per vehicle-hour
 * @param garageDuration how long a garage outage lasts, at most one hour; outages may take at most half of the time
 *     ({@code garageOutagesPerHour × garageDuration ≤ 0.5 h})
 * @param garageFixInterval time between the fixes a device buffers while offline, at least 1 ms, at most {@value
 *     #MAXIMUM_BUFFERED_FIXES} fixes per outage
 */
public record FleetPatterns(
        double v2Share,
        Duration deliveryStopDuration,
        double deviationsPerHour,
        double glitchesPerHour,
        double garageOutagesPerHour,
        Duration garageDuration,
        Duration garageFixInterval) {
    public static final double MAXIMUM_DEVIATIONS_PER_HOUR = 6;
    public static final double MAXIMUM_GLITCHES_PER_HOUR = 60;
    public static final Duration MAXIMUM_DELIVERY_STOP_DURATION = Duration.ofHours(1);
    public static final Duration MAXIMUM_GARAGE_DURATION = Duration.ofHours(1);
    /** The most of its time a device may spend in garage outages. */
    public static final double MAXIMUM_OFFLINE_SHARE = 0.5;

    public static final long MAXIMUM_BUFFERED_FIXES = 100_000;

    private static final Duration DEFAULT_GARAGE_DURATION = Duration.ofMinutes(10);
    private static final Duration DEFAULT_GARAGE_FIX_INTERVAL = Duration.ofSeconds(1);

    public FleetPatterns {
        requireNonNull(deliveryStopDuration, "deliveryStopDuration is null");
        requireNonNull(garageDuration, "garageDuration is null");
        requireNonNull(garageFixInterval, "garageFixInterval is null");
        require(v2Share >= 0 && v2Share <= 1, "The firmware 2 share must be between 0 and 1, got " + v2Share);
        require(
                !deliveryStopDuration.isNegative()
                        && deliveryStopDuration.compareTo(MAXIMUM_DELIVERY_STOP_DURATION) <= 0,
                "The delivery stop duration must be between 0 and 1 hour, got " + deliveryStopDuration);
        require(
                deviationsPerHour >= 0 && deviationsPerHour <= MAXIMUM_DEVIATIONS_PER_HOUR,
                "Deviations per vehicle-hour must be between 0 and 6, got " + deviationsPerHour);
        require(
                glitchesPerHour >= 0 && glitchesPerHour <= MAXIMUM_GLITCHES_PER_HOUR,
                "GPS glitches per vehicle-hour must be between 0 and 60, got " + glitchesPerHour);
        require(
                !garageDuration.isNegative()
                        && !garageDuration.isZero()
                        && garageDuration.compareTo(MAXIMUM_GARAGE_DURATION) <= 0,
                "A garage outage must last more than 0 and at most 1 hour, got " + garageDuration);
        require(
                garageOutagesPerHour >= 0
                        && offlineShare(garageOutagesPerHour, garageDuration) <= MAXIMUM_OFFLINE_SHARE,
                "Garage outages may take at most half of a device's time, got " + garageOutagesPerHour + " outages of "
                        + garageDuration + " per vehicle-hour");
        require(
                garageFixInterval.toMillis() >= 1
                        && bufferedFixes(garageDuration, garageFixInterval) <= MAXIMUM_BUFFERED_FIXES,
                "A garage outage buffers a fix at most every millisecond and at most " + MAXIMUM_BUFFERED_FIXES
                        + " fixes, got " + garageDuration + " every " + garageFixInterval);
    }

    /** Vehicles halt at their stops; no firmware 2 devices, deviations, glitches or garage outages. */
    public static FleetPatterns noIncidents(Duration deliveryStopDuration) {
        return new FleetPatterns(
                0, deliveryStopDuration, 0, 0, 0, DEFAULT_GARAGE_DURATION, DEFAULT_GARAGE_FIX_INTERVAL);
    }

    /** The share of a device's time spent in garage outages. */
    public static double offlineShare(double outagesPerHour, Duration duration) {
        return outagesPerHour * duration.toNanos() / Duration.ofHours(1).toNanos();
    }

    /** How many fixes a device buffers during one outage. */
    public static long bufferedFixes(Duration duration, Duration fixInterval) {
        return (duration.toNanos() + fixInterval.toNanos() - 1) / fixInterval.toNanos();
    }

    private static void require(boolean valid, String message) {
        if (!valid) {
            throw new IllegalArgumentException(message);
        }
    }
}
