package io.fleetlake.bench;

import io.fleetlake.bench.phase.MaintenancePhase;
import io.fleetlake.bench.report.BenchResults;
import io.fleetlake.bench.report.BenchmarksMarkdown;
import io.fleetlake.bench.report.MachineDescription;
import io.fleetlake.bench.report.ResultJson;
import io.fleetlake.bench.report.ResultTable;
import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.stack.process.FleetHome;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fleet bench}: throughput, end-to-end latency, time travel and the Iceberg Kafka Connect sink side by side,
 * measured on an embedded stack of its own, printed as a table and written as JSON and to BENCHMARKS.md.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = {
            "Measures the pipeline on an embedded stack of its own (free ports, fresh data directory): Kafka backlog"
                    + " throughput, MQTT throughput, device -> Redis / Iceberg / Trino latency at a fixed rate, time"
                    + " travel over a vehicle-day, and the Iceberg Kafka Connect sink on the same records.",
            "Prints a table (metric, measured, target, reference system, met/missed), writes it as JSON and appends it"
                    + " to BENCHMARKS.md. Stops everything at the end, on failure and on Ctrl-C."
        })
public final class BenchCommand implements Callable<Integer> {
    private static final DateTimeFormatter RUN_ID =
            DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    @Mixin
    private ConfigOptions config;

    @Option(
            names = "--quick",
            description = "Small sizes that finish in a few minutes (each size option still wins); Trino is not"
                    + " restarted for the cold time-travel query, which is reported as not measured.")
    private boolean quick;

    @Option(
            names = "--records",
            paramLabel = "N",
            description = "Kafka backlog of the throughput phase (default 300,000; quick 50,000).")
    private Long records;

    @Option(
            names = "--vehicles",
            paramLabel = "N",
            description = "Vehicles of the simulated fleet; the planning API serves their routes (default 2,000).")
    private Integer vehicles;

    @Option(
            names = "--mqtt-records",
            paramLabel = "N",
            description =
                    "Positions offered over MQTT at 5,000 msg/s in the MQTT phase (default 1,500,000: five minutes;"
                            + " quick 20,000).")
    private Long mqttRecords;

    @Option(
            names = "--mqtt-publishers",
            paramLabel = "N",
            description = "MQTT clients publishing in parallel in the MQTT phase (default 4).")
    private Integer mqttPublishers;

    @Option(
            names = "--rate",
            paramLabel = "MSG_PER_S",
            description = "Offered MQTT rate of the latency phase (default 2,000).")
    private Double rate;

    @Option(
            names = "--duration",
            paramLabel = "DURATION",
            description = "Length of the latency phase, its first 5 s warm-up included (default 60s; quick 20s).")
    private String duration;

    @Option(
            names = "--history-fixes",
            paramLabel = "N",
            description = "Fixes of the vehicle-day of the time-travel phase, every 5 s (default 17,280).")
    private Integer historyFixes;

    @Option(names = "--no-peer", description = "Skip the Iceberg Kafka Connect sink side by side.")
    private boolean noPeer;

    @Option(
            names = "--peer-pairs",
            paramLabel = "N",
            description = "Alternating pipeline/sink pairs, each on a backlog of its own (default 1).")
    private Integer peerPairs;

    @Option(
            names = "--peer-records",
            paramLabel = "N",
            description = "JSON backlog of each side-by-side pair (default: --records).")
    private Long peerRecords;

    @Option(
            names = "--profile",
            description = "Record the pipeline JVM with Java Flight Recorder and print where the throughput phase's"
                    + " time went.")
    private boolean profile;

    @Option(
            names = "--checkpoint-interval",
            paramLabel = "DURATION",
            description = "The pipeline's checkpoint interval and the sink's commit interval (default 10s; quick 5s).")
    private String checkpointInterval;

    @Option(
            names = "--phase-timeout",
            paramLabel = "DURATION",
            description = "Longest wait for the pipeline in a phase before its figures are reported as not measured"
                    + " (default 10m, quick 5m, longer for a backlog that takes longer at 2,000 msg/s).")
    private String phaseTimeout;

    @Option(
            names = "--idle",
            paramLabel = "DURATION",
            description = "How long the idle CPU of every component is measured at zero load, right after the stack"
                    + " started and again, warm, after every other phase (default 60s; quick 20s; 0s skips both).")
    private String idle;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description = "Data directory of the bench's stack (default: target/bench-<timestamp> in the checkout).")
    private Path dataDirectory;

    @Option(
            names = "--json-out",
            paramLabel = "FILE",
            description = "Where to write the results as JSON (default: bench-results.json in the data directory).")
    private Path jsonOut;

    @Option(
            names = "--benchmarks-md",
            paramLabel = "FILE",
            description = "The BENCHMARKS.md to append the results to (default: the checkout's).")
    private Path benchmarksMarkdown;

    @Option(names = "--no-append", description = "Do not append the results to BENCHMARKS.md.")
    private boolean noAppend;

    @Option(
            names = "--maintenance",
            description = "Only the table maintenance phase: a simulated day of commits, then files per partition,"
                    + " metadata size and a vehicle-day time-travel query before and after fleet maintain.")
    private boolean maintenance;

    @Option(
            names = "--maintenance-commits",
            paramLabel = "N",
            description = "Commits of the simulated day of --maintenance (default 720; 8,640 is a day of 10 s"
                    + " checkpoints).")
    private Integer maintenanceCommits;

    public static void main(String[] args) {
        // Kafka, Trino JDBC and MQTT clients leave non-daemon threads behind.
        System.exit(new CommandLine(new BenchCommand()).execute(args));
    }

    @Override
    public Integer call() {
        FleetHome home = FleetHome.locate();
        BenchSettings settings = settings(home);
        ConfigSource userConfiguration = config.load();
        BenchConsole console = new BenchConsole(System.out);
        MachineDescription machine = MachineDescription.current();
        console.print(String.format(
                "fleet bench on %d cores, %s memory, %s, %s; load average %s%n",
                machine.cores(), machine.memory(), machine.jdk(), machine.operatingSystem(), machine.loadAverage()));
        if (maintenance) {
            return MaintenancePhase.runAlone(
                    settings,
                    userConfiguration,
                    home,
                    console,
                    Optional.ofNullable(maintenanceCommits).orElse(MaintenancePhase.DEFAULT_COMMITS));
        }
        console.print("Settings: " + settings.describe() + System.lineSeparator());

        BenchResults results = new BenchRun(settings, userConfiguration, home, console).run(machine);

        console.print(System.lineSeparator() + "Targets of issue 13:" + System.lineSeparator()
                + ResultTable.targetsText(results.targets()));
        console.print(System.lineSeparator() + ResultTable.text(results.metrics()));
        results.breakdowns()
                .forEach(breakdown -> console.print(System.lineSeparator() + ResultTable.breakdownText(breakdown)));
        ResultJson.write(results, settings.jsonOut());
        console.print("Results written to " + settings.jsonOut() + System.lineSeparator());
        settings.benchmarksMarkdown().ifPresent(file -> {
            BenchmarksMarkdown.append(file, results);
            console.print("Appended to " + file + System.lineSeparator());
        });
        return 0;
    }

    /** A duration as the configuration writes it ({@code 60s}, {@code 2m}), or {@code 0} / {@code 0s} for none. */
    private static Duration duration(String text) {
        return text.trim().matches("0+[a-z]*") ? Duration.ZERO : ConfigSource.parseDuration(text);
    }

    private BenchSettings settings(FleetHome home) {
        Path directory = (dataDirectory != null
                        ? dataDirectory
                        : home.root().resolve("target").resolve("bench-" + RUN_ID.format(Instant.now())))
                .toAbsolutePath();
        Path markdown =
                benchmarksMarkdown != null ? benchmarksMarkdown : home.root().resolve("BENCHMARKS.md");
        BenchSettings base =
                quick ? BenchSettings.quickDefaults(directory, markdown) : BenchSettings.defaults(directory, markdown);
        long backlog = Optional.ofNullable(records).orElse(base.records());
        return new BenchSettings(
                quick,
                backlog,
                base.fixInterval(),
                Optional.ofNullable(vehicles).orElse(base.vehicles()),
                Optional.ofNullable(mqttRecords).orElse(base.mqttRecords()),
                Optional.ofNullable(mqttPublishers).orElse(base.mqttPublishers()),
                Optional.ofNullable(rate).orElse(base.rate()),
                Optional.ofNullable(duration).map(ConfigSource::parseDuration).orElse(base.duration()),
                base.warmUp(),
                Optional.ofNullable(historyFixes).orElse(base.historyFixes()),
                base.historyInterval(),
                !noPeer,
                Optional.ofNullable(peerPairs).orElse(base.peerPairs()),
                Optional.ofNullable(peerRecords).orElse(records != null ? backlog : base.peerRecords()),
                profile,
                Optional.ofNullable(checkpointInterval)
                        .map(ConfigSource::parseDuration)
                        .orElse(base.checkpointInterval()),
                Optional.ofNullable(phaseTimeout)
                        .map(ConfigSource::parseDuration)
                        .orElse(BenchSettings.phaseTimeoutFor(base.phaseTimeout(), backlog)),
                Optional.ofNullable(idle).map(BenchCommand::duration).orElse(base.idle()),
                directory,
                jsonOut != null ? jsonOut.toAbsolutePath() : directory.resolve("bench-results.json"),
                noAppend ? Optional.empty() : Optional.of(markdown));
    }
}
