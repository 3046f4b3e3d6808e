package io.fleetlake.spark;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.config.ConfigSource;
import java.time.Clock;
import java.time.LocalDate;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Computes one day of {@code fleet.daily_summary} with Spark in local mode, then exits. */
@Command(
        name = "daily-summary",
        mixinStandardHelpOptions = true,
        description = "Computes the daily fleet summary of one UTC day (one row per vehicle: positions, distance,"
                + " time stopped, share on route, rejections) from the Iceberg tables fleet.positions and"
                + " fleet.rejected_positions with Spark in local mode, and replaces that day's rows of"
                + " fleet.daily_summary. Configuration keys: spark.*")
public final class DailySummaryMain implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(DailySummaryMain.class);

    @Option(
            names = "--date",
            paramLabel = "YYYY-MM-DD",
            description = "UTC day to summarise; wins over " + DailySummaryConfig.DATE + ". Default: yesterday (UTC).")
    private LocalDate date;

    @Mixin
    private ConfigOptions config;

    public static void main(String[] args) {
        // Spark can leave non-daemon threads behind: the process must exit explicitly, also after a failure.
        System.exit(new CommandLine(new DailySummaryMain()).execute(args));
    }

    @Override
    public Integer call() {
        Clock clock = Clock.systemUTC();
        DailySummaryConfig summaryConfig;
        try {
            ConfigSource source = config.load();
            if (date != null) {
                source = source.withOverrides(Map.of(DailySummaryConfig.DATE, date.toString()), "command line --date");
            }
            summaryConfig = DailySummaryConfig.from(source, clock);
        } catch (ConfigException e) {
            LOG.error("The daily summary cannot start: {}", e.getMessage());
            return 1;
        }
        try {
            LOG.info("Computing the daily summary with {}", summaryConfig);
            try (SparkSession spark = LocalSparkSession.start(LocalSparkSession.settings(summaryConfig))) {
                DailySummaryResult result = new DailySummaryJob(spark).run(summaryConfig.date(), clock.instant());
                LOG.info(
                        "Daily summary for {}: {} vehicles, written to {} (snapshot {})",
                        result.day(),
                        result.vehicles(),
                        DailySummaryTable.IDENTIFIER,
                        result.snapshotId());
            }
            return 0;
        } catch (Exception e) {
            // Spark throws checked exceptions (AnalysisException) without declaring them.
            LOG.error("The daily summary failed: {}", e.getMessage(), e);
            return 1;
        }
    }
}
