package io.fleetlake.stack.cli;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.process.FleetHome;
import io.fleetlake.stack.spark.DailySummaryLauncher;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Spark jobs over the fleet's Iceberg tables, run against the embedded stack. */
@Command(
        name = "spark",
        mixinStandardHelpOptions = true,
        description = "Run Spark jobs on the running stack's Iceberg tables.",
        subcommands = {SparkCommand.DailySummary.class})
public final class SparkCommand implements Runnable {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "Name a Spark job, for example: fleet spark daily-summary --date 2026-11-28");
    }

    /** {@code fleet spark daily-summary}: writes one day of fleet.daily_summary. */
    @Command(
            name = "daily-summary",
            mixinStandardHelpOptions = true,
            description = "Distance, time stopped, on-route share and rejections per vehicle for one UTC day, into"
                    + " fleet.daily_summary (rerunning a day replaces it).")
    static final class DailySummary implements Callable<Integer> {
        @Mixin
        private StackOptions options;

        @Option(names = "--date", paramLabel = "YYYY-MM-DD", description = "The UTC day (default: yesterday).")
        private LocalDate date;

        @Override
        public Integer call() throws InterruptedException {
            FleetHome home = options.home();
            ConfigSource configuration = options.configuration();
            StackSettings settings = options.settings(configuration, home);
            LocalDate day = date != null ? date : LocalDate.now(ZoneOffset.UTC).minusDays(1);
            return new DailySummaryLauncher(settings, home).run(day);
        }
    }
}
