package io.fleetlake.flink.windows;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Position;
import io.fleetlake.model.geo.GreatCircle;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The numbers of one row of {@code fleet.vehicle_minutes}: one vehicle, one minute of event time. This class is their
 * definition; the pipeline's window computes them with {@link #of}, and a backfill must compute exactly the same.
 *
 * <p><b>Input.</b> The vehicle's accepted positions (the rows of {@code fleet.positions}) with {@code window_start <=
 * event_time < window_end}: {@code window_start} is the event time truncated to the minute in UTC (epoch milliseconds
 * rounded down to a multiple of 60,000), {@code window_end = window_start + 1 minute}. A minute without positions has
 * no row. Only the minute's own fixes are used: the distance and the time between the last fix of one minute and the
 * first fix of the next belong to neither minute.
 *
 * <p><b>Order.</b> The fixes sorted by {@code event_time}, then {@code latitude}, {@code longitude}, {@code speed_kmh},
 * all ascending (after de-duplication a vehicle has one fix per event time; the tie-breakers only make the order total).
 * Call them {@code f1 .. fn}; {@code t} is the event time in epoch milliseconds (sub-millisecond digits dropped).
 *
 * <ul>
 *   <li>{@code positions = n}
 *   <li>{@code distance_m} = the sum over {@code i = 2..n} of {@code h(f(i-1), f(i))}; 0 when {@code n = 1}. {@code h}
 *       is the haversine distance in metres on a sphere of radius {@code R = 6371008.8} m (the IUGG mean Earth radius,
 *       {@link GreatCircle}),
 *       with {@code φ = radians(latitude)}, {@code λ = radians(longitude)}, {@code a = sin((φ2 - φ1) / 2)}, {@code b =
 *       sin((λ2 - λ1) / 2)}: {@code h = 2 * R * asin(sqrt(least(1, a * a + cos(φ1) * cos(φ2) * b * b)))}. Do not use
 *       Trino's {@code great_circle_distance}: it uses another radius (6371.01 km).
 *   <li>{@code avg_speed_kmh} = (sum of {@code speed_kmh}) / {@code n}: the mean of the reported speeds, not weighted
 *       by time.
 *   <li>{@code max_speed_kmh} = the largest {@code speed_kmh}.
 *   <li>{@code seconds_stopped} = the sum over {@code i = 2..n} of {@code (t(i) - t(i-1)) / 1000.0} for the pairs where
 *       both {@code speed_kmh(i-1)} and {@code speed_kmh(i)} are below the stop speed {@code S}
 *       ({@code enrichment.stop-speed-kmh}, 3 km/h by default); 0 when no pair qualifies.
 * </ul>
 *
 * <p>The sums add in fix order; a SQL {@code sum} may add in another order, which can change the last binary digits
 * (relative differences around 1e-15), so compare with a small tolerance. In Trino SQL, with the stop speed 3:
 *
 * <pre>{@code
 * WITH fixes AS (
 *   SELECT vehicle_id, date_trunc('minute', event_time AT TIME ZONE 'UTC') AS window_start, event_time, latitude,
 *          longitude, speed_kmh,
 *          lag(event_time) OVER w AS previous_time, lag(latitude) OVER w AS previous_latitude,
 *          lag(longitude) OVER w AS previous_longitude, lag(speed_kmh) OVER w AS previous_speed_kmh
 *   FROM fleet.positions
 *   WINDOW w AS (PARTITION BY vehicle_id, date_trunc('minute', event_time AT TIME ZONE 'UTC')
 *                ORDER BY event_time, latitude, longitude, speed_kmh))
 * SELECT vehicle_id, window_start, window_start + INTERVAL '1' MINUTE AS window_end,
 *        count(*) AS positions,
 *        coalesce(sum(2 * 6371008.8 * asin(sqrt(least(1,
 *            sin((radians(latitude) - radians(previous_latitude)) / 2)
 *                * sin((radians(latitude) - radians(previous_latitude)) / 2)
 *            + cos(radians(previous_latitude)) * cos(radians(latitude))
 *                * sin((radians(longitude) - radians(previous_longitude)) / 2)
 *                * sin((radians(longitude) - radians(previous_longitude)) / 2))))), 0) AS distance_m,
 *        avg(speed_kmh) AS avg_speed_kmh,
 *        max(speed_kmh) AS max_speed_kmh,
 *        coalesce(sum(CASE WHEN previous_speed_kmh < 3 AND speed_kmh < 3
 *            THEN date_diff('millisecond', previous_time, event_time) / 1000.0 END), 0) AS seconds_stopped
 * FROM fixes
 * GROUP BY vehicle_id, window_start
 * }</pre>
 *
 * @param positions number of fixes in the minute, at least 1
 * @param distanceM great-circle metres between consecutive fixes of the minute
 * @param avgSpeedKmh mean reported speed
 * @param maxSpeedKmh highest reported speed
 * @param secondsStopped seconds between consecutive fixes that were both below the stop speed
 */
public record MinuteAggregate(
        int positions, double distanceM, double avgSpeedKmh, double maxSpeedKmh, double secondsStopped) {
    /** The IUGG mean Earth radius, the one of {@code io.fleetlake.model.geo.GreatCircle}. */
    public static final double EARTH_RADIUS_M = 6_371_008.8;

    /** The order of the fixes; total, so that the pipeline and a backfill agree on it. */
    public static final Comparator<Fix> FIX_ORDER = Comparator.comparingLong(Fix::epochMilli)
            .thenComparingDouble(Fix::latitude)
            .thenComparingDouble(Fix::longitude)
            .thenComparingDouble(Fix::speedKmh);

    public MinuteAggregate {
        if (positions < 1) {
            throw new IllegalArgumentException("A minute has at least one position, got " + positions);
        }
    }

    /**
     * Computes a minute's numbers from its fixes, in any order.
     *
     * @param stopSpeedKmh below this speed a fix counts as stationary
     * @throws IllegalArgumentException when there is no fix
     */
    public static MinuteAggregate of(Collection<Fix> fixes, double stopSpeedKmh) {
        requireNonNull(fixes, "fixes is null");
        if (fixes.isEmpty()) {
            throw new IllegalArgumentException("A minute has at least one position");
        }
        List<Fix> ordered = fixes.stream().sorted(FIX_ORDER).toList();
        double distanceM = 0;
        double speedSum = 0;
        double maxSpeedKmh = Double.NEGATIVE_INFINITY;
        double secondsStopped = 0;
        Fix previous = null;
        for (Fix fix : ordered) {
            speedSum += fix.speedKmh();
            maxSpeedKmh = Math.max(maxSpeedKmh, fix.speedKmh());
            if (previous != null) {
                distanceM += GreatCircle.distanceMetres(
                        previous.latitude(), previous.longitude(), fix.latitude(), fix.longitude());
                if (previous.speedKmh() < stopSpeedKmh && fix.speedKmh() < stopSpeedKmh) {
                    secondsStopped += (fix.epochMilli() - previous.epochMilli()) / 1000.0;
                }
            }
            previous = fix;
        }
        return new MinuteAggregate(ordered.size(), distanceM, speedSum / ordered.size(), maxSpeedKmh, secondsStopped);
    }

    /**
     * The part of a position a minute needs; the window keeps only these, not the payloads.
     *
     * @param epochMilli event time in epoch milliseconds
     */
    public record Fix(long epochMilli, double latitude, double longitude, double speedKmh) {
        public static Fix of(Position position) {
            return new Fix(
                    position.eventTime().toEpochMilli(),
                    position.latitude(),
                    position.longitude(),
                    position.speedKmh());
        }
    }
}
