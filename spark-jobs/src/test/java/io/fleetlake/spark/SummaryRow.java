package io.fleetlake.spark;

import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import org.apache.spark.sql.Row;
import org.assertj.core.api.recursive.comparison.RecursiveComparisonConfiguration;

/** A row of fleet.daily_summary as Java values, for assertions. */
record SummaryRow(
        LocalDate day,
        String vehicleId,
        long positions,
        double distanceKm,
        double secondsStopped,
        Double onRouteShare,
        long positionsRejected,
        Instant computedAt) {
    /** Sums may differ in their last binary digits (see {@link DailySummary}). */
    static final RecursiveComparisonConfiguration WITH_TOLERANCE = RecursiveComparisonConfiguration.builder()
            .withComparatorForType(
                    (left, right) -> Math.abs(left - right) <= 1e-9 * Math.max(1, Math.abs(left))
                            ? 0
                            : Double.compare(left, right),
                    Double.class)
            .build();

    private static int compareWithTolerance(double left, double right) {
        return Math.abs(left - right) <= 1e-9 * Math.max(1, Math.abs(left)) ? 0 : Double.compare(left, right);
    }

    static SummaryRow of(Row row) {
        return new SummaryRow(
                row.<Date>getAs(DailySummaryTable.DAY).toLocalDate(),
                row.getAs(DailySummaryTable.VEHICLE_ID),
                row.<Long>getAs(DailySummaryTable.POSITIONS),
                row.<Double>getAs(DailySummaryTable.DISTANCE_KM),
                row.<Double>getAs(DailySummaryTable.SECONDS_STOPPED),
                row.getAs(DailySummaryTable.ON_ROUTE_SHARE),
                row.<Long>getAs(DailySummaryTable.POSITIONS_REJECTED),
                row.<Timestamp>getAs(DailySummaryTable.COMPUTED_AT).toInstant());
    }
}
