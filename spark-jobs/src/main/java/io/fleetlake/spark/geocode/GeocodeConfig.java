package io.fleetlake.spark.geocode;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.spark.SparkCatalogConfig;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Configuration of the geocoding job: the catalog and Spark settings every job of the module shares ({@code spark.*}),
 * and its own {@code geocode.*} keys.
 *
 * @param catalog where the tables are and how Spark runs
 * @param maxDistanceKm a position farther than this from every place gets no place (at sea)
 * @param full reread every position of the current snapshot instead of only what changed since the last run
 * @param since also reread the snapshots committed at or after this instant
 */
public record GeocodeConfig(SparkCatalogConfig catalog, double maxDistanceKm, boolean full, Optional<Instant> since) {
    public static final String MAX_DISTANCE_KM = "geocode.max-distance-km";
    public static final String FULL = "geocode.full";
    public static final String SINCE = "geocode.since";

    /**
     * Wider than the gaps between GeoNames places anywhere on the Iberian mainland and the islands, narrow enough that a
     * fix far out at sea is not named after a coastal town.
     */
    public static final double DEFAULT_MAX_DISTANCE_KM = 30;

    public GeocodeConfig {
        requireNonNull(catalog, "catalog is null");
        requireNonNull(since, "since is null");
        if (!(maxDistanceKm > 0) || Double.isInfinite(maxDistanceKm)) {
            throw new ConfigException("Invalid configuration " + MAX_DISTANCE_KM + " = " + maxDistanceKm
                    + ": expected a distance in kilometres greater than 0");
        }
    }

    /**
     * Reads and validates every key; all have defaults.
     *
     * @param clock turns a {@value #SINCE} duration ({@code 6h}, {@code 2d}) into an instant before now
     */
    public static GeocodeConfig from(ConfigSource source, Clock clock) {
        requireNonNull(source, "source is null");
        requireNonNull(clock, "clock is null");
        return new GeocodeConfig(
                SparkCatalogConfig.from(source),
                source.doubleValue(MAX_DISTANCE_KM, DEFAULT_MAX_DISTANCE_KM),
                source.bool(FULL, false),
                source.string(SINCE).map(value -> parseSince(value, clock)));
    }

    /** An instant ({@code 2026-11-28T06:00:00Z}) or a duration back from now ({@code 90m}, {@code 6h}, {@code 2d}). */
    static Instant parseSince(String value, Clock clock) {
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException notAnInstant) {
            try {
                Duration back = ConfigSource.parseDuration(value);
                return clock.instant().minus(back);
            } catch (RuntimeException notADuration) {
                throw new ConfigException("Invalid configuration " + SINCE + " = '" + value
                        + "': expected an instant such as 2026-11-28T06:00:00Z or a duration such as 6h or 2d");
            }
        }
    }

    @Override
    public String toString() {
        return "GeocodeConfig{" + catalog + ", maxDistanceKm=" + maxDistanceKm + ", full=" + full + ", since="
                + since.map(Instant::toString).orElse("<last run>") + "}";
    }
}
