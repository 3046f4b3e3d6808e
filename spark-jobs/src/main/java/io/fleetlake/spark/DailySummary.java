package io.fleetlake.spark;

import static java.util.Objects.requireNonNull;
import static org.apache.spark.sql.functions.asin;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.cos;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lag;
import static org.apache.spark.sql.functions.least;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.radians;
import static org.apache.spark.sql.functions.sin;
import static org.apache.spark.sql.functions.sqrt;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.unix_micros;
import static org.apache.spark.sql.functions.when;

import io.fleetlake.model.EnrichmentColumns;
import io.fleetlake.model.RejectedColumns;
import io.fleetlake.model.VehicleStatus;
import io.fleetlake.model.codec.PositionField;
import io.fleetlake.model.geo.GreatCircle;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.expressions.WindowSpec;

/**
 * The numbers of {@code fleet.daily_summary}: one row per vehicle and UTC day. This class is their definition.
 *
 * <p><b>Input.</b> A vehicle's positions of day {@code D} are the rows of {@code fleet.positions} with {@code D
 * 00:00:00 UTC <= event_time < D+1 00:00:00 UTC}; its rejections of day {@code D} are the rows of {@code
 * fleet.rejected_positions} with its {@code vehicle_id} and {@code rejected_at} in the same interval (rejections without
 * a vehicle id are not counted). A vehicle has a row when it has at least one position or one rejection that day.
 *
 * <p><b>Order.</b> The day's fixes sorted by {@code event_time}, then {@code latitude}, {@code longitude}, {@code
 * speed_kmh}, all ascending, as for {@code fleet.vehicle_minutes} (the pipeline's {@code MinuteAggregate}); call them
 * {@code f1 .. fn}. Unlike the minutes, the step between the last fix of one minute and the first of the next counts.
 *
 * <ul>
 *   <li>{@code day} = {@code D}.
 *   <li>{@code positions = n}, 0 for a vehicle that only has rejections.
 *   <li>{@code distance_km} = the sum over {@code i = 2..n} of {@code h(f(i-1), f(i))} / 1000; 0 when {@code n <= 1}.
 *       {@code h} is the haversine distance in metres with {@code R = 6371008.8} m ({@link GreatCircle}): {@code φ = radians(latitude)},
 *       {@code λ = radians(longitude)}, {@code a = sin((φ2 - φ1) / 2)}, {@code b = sin((λ2 - λ1) / 2)}, {@code h = 2 *
 *       R * asin(sqrt(least(1, a * a + cos(φ1) * cos(φ2) * b * b)))}.
 *   <li>{@code seconds_stopped} = the sum over {@code i = 2..n} of {@code event_time(i) - event_time(i-1)} in seconds
 *       (microsecond precision) for the pairs where both {@code speed_kmh} are below {@value #STOP_SPEED_KMH} km/h (the
 *       default {@code enrichment.stop-speed-kmh}); 0 when no pair qualifies.
 *   <li>{@code on_route_share} = (positions with a {@code route_id} and {@code status = 'ON_ROUTE'}) / (positions with a
 *       {@code route_id}); null when no position of the day had a route.
 *   <li>{@code positions_rejected} = the vehicle's rejections of the day; 0 when none.
 *   <li>{@code computed_at} = when the job computed the day, the same for all its rows.
 * </ul>
 *
 * <p>Spark adds the sums in any order, which can change the last binary digits: compare with a small tolerance.
 */
public final class DailySummary {
    /** Below this speed a fix counts as stationary; the default of the pipeline's {@code enrichment.stop-speed-kmh}. */
    public static final double STOP_SPEED_KMH = 3.0;

    private static final String VEHICLE_ID = PositionField.VEHICLE_ID.fieldName();
    private static final String EVENT_TIME = PositionField.EVENT_TIME.fieldName();
    private static final String LATITUDE = PositionField.LATITUDE.fieldName();
    private static final String LONGITUDE = PositionField.LONGITUDE.fieldName();
    private static final String SPEED_KMH = PositionField.SPEED_KMH.fieldName();
    private static final String STEP_METRES = "step_metres";
    private static final String STEP_SECONDS_STOPPED = "step_seconds_stopped";
    private static final double MICROSECONDS_PER_SECOND = 1_000_000.0;
    private static final double METRES_PER_KILOMETRE = 1_000.0;

    private DailySummary() {}

    /**
     * Computes the summary rows of one day, with the columns of {@link DailySummaryTable#COLUMNS} in that order.
     *
     * @param positions rows with at least the {@code fleet.positions} columns vehicle_id, event_time, latitude,
     *     longitude, speed_kmh, route_id and status; rows of other days are ignored
     * @param rejectedPositions rows with at least the {@code fleet.rejected_positions} columns vehicle_id and
     *     rejected_at; rows of other days are ignored
     * @param day the UTC day to summarise
     * @param computedAt the value of {@code computed_at}
     */
    public static Dataset<Row> compute(
            Dataset<Row> positions, Dataset<Row> rejectedPositions, LocalDate day, Instant computedAt) {
        requireNonNull(positions, "positions is null");
        requireNonNull(rejectedPositions, "rejectedPositions is null");
        requireNonNull(day, "day is null");
        requireNonNull(computedAt, "computedAt is null");
        Instant start = day.atStartOfDay(ZoneOffset.UTC).toInstant();
        Instant end = day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();

        Dataset<Row> positionsPerVehicle = positionsPerVehicle(positions.where(within(EVENT_TIME, start, end)));
        Dataset<Row> rejectionsPerVehicle = rejectedPositions
                .where(within(RejectedColumns.REJECTED_AT, start, end)
                        .and(col(RejectedColumns.VEHICLE_ID).isNotNull()))
                .groupBy(col(RejectedColumns.VEHICLE_ID).as(VEHICLE_ID))
                .agg(count(lit(1)).as(DailySummaryTable.POSITIONS_REJECTED));

        return positionsPerVehicle
                .join(rejectionsPerVehicle, new String[] {VEHICLE_ID}, "full_outer")
                .select(
                        lit(day).as(DailySummaryTable.DAY),
                        col(VEHICLE_ID).as(DailySummaryTable.VEHICLE_ID),
                        coalesce(col(DailySummaryTable.POSITIONS), lit(0L)).as(DailySummaryTable.POSITIONS),
                        coalesce(col(DailySummaryTable.DISTANCE_KM), lit(0.0)).as(DailySummaryTable.DISTANCE_KM),
                        coalesce(col(DailySummaryTable.SECONDS_STOPPED), lit(0.0))
                                .as(DailySummaryTable.SECONDS_STOPPED),
                        col(DailySummaryTable.ON_ROUTE_SHARE),
                        coalesce(col(DailySummaryTable.POSITIONS_REJECTED), lit(0L))
                                .as(DailySummaryTable.POSITIONS_REJECTED),
                        lit(computedAt).as(DailySummaryTable.COMPUTED_AT));
    }

    /** One row per vehicle of the given day's positions: positions, distance_km, seconds_stopped, on_route_share. */
    private static Dataset<Row> positionsPerVehicle(Dataset<Row> dayPositions) {
        WindowSpec fixOrder = Window.partitionBy(col(VEHICLE_ID))
                .orderBy(col(EVENT_TIME), col(LATITUDE), col(LONGITUDE), col(SPEED_KMH));
        Column previousTime = lag(col(EVENT_TIME), 1).over(fixOrder);
        Column previousSpeed = lag(col(SPEED_KMH), 1).over(fixOrder);
        Column bothStopped = previousSpeed.lt(STOP_SPEED_KMH).and(col(SPEED_KMH).lt(STOP_SPEED_KMH));
        Column secondsSincePrevious =
                unix_micros(col(EVENT_TIME)).minus(unix_micros(previousTime)).divide(MICROSECONDS_PER_SECOND);

        Dataset<Row> steps = dayPositions.select(
                col(VEHICLE_ID),
                col(EnrichmentColumns.ROUTE_ID),
                col(EnrichmentColumns.STATUS),
                haversineMetres(
                                lag(col(LATITUDE), 1).over(fixOrder),
                                lag(col(LONGITUDE), 1).over(fixOrder),
                                col(LATITUDE),
                                col(LONGITUDE))
                        .as(STEP_METRES),
                when(bothStopped, secondsSincePrevious).as(STEP_SECONDS_STOPPED));

        Column withRoute = count(col(EnrichmentColumns.ROUTE_ID));
        Column onRoute = sum(when(
                        col(EnrichmentColumns.ROUTE_ID)
                                .isNotNull()
                                .and(col(EnrichmentColumns.STATUS).equalTo(VehicleStatus.ON_ROUTE.name())),
                        1)
                .otherwise(0));
        return steps.groupBy(col(VEHICLE_ID))
                .agg(
                        count(lit(1)).as(DailySummaryTable.POSITIONS),
                        coalesce(sum(col(STEP_METRES)), lit(0.0))
                                .divide(METRES_PER_KILOMETRE)
                                .as(DailySummaryTable.DISTANCE_KM),
                        coalesce(sum(col(STEP_SECONDS_STOPPED)), lit(0.0)).as(DailySummaryTable.SECONDS_STOPPED),
                        // Without the guard ANSI mode (Spark 4's default) fails the division by zero.
                        when(withRoute.gt(0), onRoute.divide(withRoute)).as(DailySummaryTable.ON_ROUTE_SHARE));
    }

    /**
     * The haversine distance in metres, evaluated as the class documentation writes it; null when a coordinate is null
     * (the first fix has no previous one).
     */
    static Column haversineMetres(Column fromLatitude, Column fromLongitude, Column toLatitude, Column toLongitude) {
        Column fromLatitudeRadians = radians(fromLatitude);
        Column toLatitudeRadians = radians(toLatitude);
        Column a = sin(toLatitudeRadians.minus(fromLatitudeRadians).divide(2));
        Column b = sin(radians(toLongitude).minus(radians(fromLongitude)).divide(2));
        Column haversine = a.multiply(a)
                .plus(cos(fromLatitudeRadians)
                        .multiply(cos(toLatitudeRadians))
                        .multiply(b)
                        .multiply(b));
        // Spark's least skips nulls: least(1, null) is 1, which would add half the Earth's circumference for the
        // first fix of a day.
        return when(
                haversine.isNotNull(),
                lit(2 * GreatCircle.EARTH_RADIUS_METRES).multiply(asin(sqrt(least(lit(1.0), haversine)))));
    }

    private static Column within(String timestampColumn, Instant start, Instant end) {
        return col(timestampColumn).geq(lit(start)).and(col(timestampColumn).lt(lit(end)));
    }
}
