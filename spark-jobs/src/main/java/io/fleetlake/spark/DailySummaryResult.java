package io.fleetlake.spark;

import static java.util.Objects.requireNonNull;

import java.time.LocalDate;

/**
 * What one run of the daily summary wrote.
 *
 * @param day the UTC day summarised
 * @param vehicles rows written: vehicles with positions or rejections that day
 * @param snapshotId the {@code fleet.daily_summary} snapshot that replaced the day's rows
 */
public record DailySummaryResult(LocalDate day, long vehicles, long snapshotId) {
    public DailySummaryResult {
        requireNonNull(day, "day is null");
        if (vehicles < 0) {
            throw new IllegalArgumentException("vehicles is negative: " + vehicles);
        }
    }
}
