package io.fleetlake.stack.cli;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.operations.health.HealthCollector;
import io.fleetlake.operations.health.HealthEvaluator;
import io.fleetlake.operations.health.HealthReport;
import io.fleetlake.operations.health.HealthReportWriter;
import io.fleetlake.operations.health.HealthSnapshot;
import io.fleetlake.operations.health.HealthThresholds;
import io.fleetlake.operations.status.StackStatusFile;
import io.fleetlake.operations.status.StackStatusFile.StackStatus;
import io.fleetlake.stack.StackHealthSources;
import io.fleetlake.stack.StackSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fleet status}: one screen on the health of the running stack. */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        description = {
            "One screen on the running stack: every component up or down, the supervisor's restarts, consumer lag per"
                    + " partition (records and seconds), the age of the last Iceberg commit per table, dead letters of"
                    + " the last 5 minutes by reason, Redis freshness (newest, median and oldest last_seen), the MQTT"
                    + " source connector and its tasks checked against records actually moving, the pipeline job's"
                    + " restarts and checkpoints, and the last maintenance run per table.",
            "Thresholds are health.* keys (--set health.max-lag=30s, ...; see stack/README.md). It watches the MQTT"
                    + " broker and the raw topic for health.sample-window (5 s) to tell whether records move.",
            "Exit status 0 when healthy, 1 when something is unhealthy (the reasons are printed last), 2 when the"
                    + " configuration is invalid."
        })
public final class StatusCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private StackOptions options;

    @Option(names = "--json", description = "Print the report as JSON (the document fleet-exporter serves on /health).")
    private boolean json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ConfigSource configuration;
        StackSettings settings;
        HealthThresholds thresholds;
        try {
            configuration = options.configuration();
            settings = options.settings(configuration, options.home());
            thresholds = HealthThresholds.from(configuration);
        } catch (ConfigException e) {
            err.println("fleet status: " + e.getMessage());
            return 2;
        }
        Path file = StackStatusFile.location(settings.dataDirectory());
        Optional<StackStatus> supervisor = StackStatusFile.read(file);
        if (supervisor.isEmpty()) {
            err.println("No stack has run on " + settings.dataDirectory() + " (no " + file.getFileName()
                    + "); checking its endpoints anyway");
        }
        HealthSnapshot snapshot;
        try (HealthCollector collector =
                new HealthCollector(StackHealthSources.of(settings, configuration), thresholds, Clock.systemUTC())) {
            snapshot = collector.collect(true, 5, supervisor);
        }
        HealthReport report = new HealthEvaluator(thresholds).evaluate(snapshot);
        out.print(
                json
                        ? HealthReportWriter.json(report, snapshot) + System.lineSeparator()
                        : HealthReportWriter.text(report));
        out.flush();
        return report.healthy() ? 0 : 1;
    }
}
