package io.fleetlake.stack.spark;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.process.FleetHome;
import java.time.LocalDate;
import java.util.List;

/**
 * Runs the Spark daily summary ({@code spark-jobs}) against the embedded stack's catalog and storage, as its own JVM
 * (Spark's dependencies stay out of the launcher), and waits for it.
 */
public final class DailySummaryLauncher {
    private static final String MAIN_CLASS = "io.fleetlake.spark.DailySummaryMain";

    private final SparkJobProcess process;

    public DailySummaryLauncher(StackSettings settings, FleetHome home) {
        this.process =
                new SparkJobProcess(requireNonNull(settings, "settings is null"), requireNonNull(home, "home is null"));
    }

    /**
     * Summarises one UTC day; the job's output goes to this process's standard output and error.
     *
     * @return the job's exit code (0 when the summary was written)
     */
    public int run(LocalDate day) throws InterruptedException {
        requireNonNull(day, "day is null");
        return process.run(
                "spark-daily-summary", MAIN_CLASS, List.of(), List.of("--date", day.toString()), CatalogRole.WRITER);
    }
}
