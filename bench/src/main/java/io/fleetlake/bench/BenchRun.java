package io.fleetlake.bench;

import static java.util.Objects.requireNonNull;

import io.fleetlake.bench.load.BacklogTimeline;
import io.fleetlake.bench.load.FleetFeed;
import io.fleetlake.bench.observe.TrinoPollingConnection.Snapshot;
import io.fleetlake.bench.phase.CpuReport;
import io.fleetlake.bench.phase.IdlePhase;
import io.fleetlake.bench.phase.LatencyPhase;
import io.fleetlake.bench.phase.MqttThroughputPhase;
import io.fleetlake.bench.phase.PeerPhase;
import io.fleetlake.bench.phase.PhaseContext;
import io.fleetlake.bench.phase.ThroughputPhase;
import io.fleetlake.bench.phase.ThroughputPhase.DrainWindow;
import io.fleetlake.bench.phase.TimeTravelPhase;
import io.fleetlake.bench.profile.FlightRecordingSummary;
import io.fleetlake.bench.report.BenchMetrics;
import io.fleetlake.bench.report.BenchResults;
import io.fleetlake.bench.report.Breakdown;
import io.fleetlake.bench.report.BreakdownDefinition;
import io.fleetlake.bench.report.IssueTargets;
import io.fleetlake.bench.report.MachineDescription;
import io.fleetlake.bench.report.Metric;
import io.fleetlake.bench.report.MetricDefinition;
import io.fleetlake.bench.report.ResultCollector;
import io.fleetlake.bench.report.ResultCollector.Window;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.Tables;
import io.fleetlake.simulator.model.FleetModel;
import io.fleetlake.stack.process.FleetHome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One bench run: starts its own stack, runs the phases one after the other (a phase that fails leaves its figures "not
 * measured" with the reason and the run goes on), stops everything, and returns the results.
 */
public final class BenchRun {
    private static final Logger LOG = LoggerFactory.getLogger(BenchRun.class);
    private static final int TOP_METHODS = 15;

    private final BenchSettings settings;
    private final ConfigSource userConfiguration;
    private final FleetHome home;
    private final BenchConsole console;

    public BenchRun(BenchSettings settings, ConfigSource userConfiguration, FleetHome home, BenchConsole console) {
        this.settings = requireNonNull(settings, "settings is null");
        this.userConfiguration = requireNonNull(userConfiguration, "userConfiguration is null");
        this.home = requireNonNull(home, "home is null");
        this.console = requireNonNull(console, "console is null");
    }

    public BenchResults run(MachineDescription machine) {
        ResultCollector results = new ResultCollector();
        List<MetricDefinition> all = BenchMetrics.all(settings.checkpointInterval());
        BenchStack stack = BenchStack.configure(settings, userConfiguration, home);
        Thread stopOnExit = new Thread(stack::close, "bench-stack-shutdown");
        Runtime.getRuntime().addShutdownHook(stopOnExit);
        try {
            console.progress("Starting the embedded stack in %s (free ports) ...", settings.dataDirectory());
            long started = System.nanoTime();
            stack.start();
            console.progress(
                    "Stack ready in %d s",
                    Duration.ofNanos(System.nanoTime() - started).toSeconds());
            Instant now = Instant.now();
            FleetFeed feed = FleetFeed.of(stack.simulator(), FleetModel.startOfDay(now.minus(Duration.ofHours(1))));
            PhaseContext context = new PhaseContext(settings, stack, feed, new BacklogTimeline(), console, results);

            idle(context, IdlePhase.AFTER_START);
            Optional<DrainWindow> drainWindow = phase(
                            "throughput",
                            results,
                            List.of(
                                    BenchMetrics.PRODUCER_RATE,
                                    BenchMetrics.DRAIN_RATE,
                                    BenchMetrics.STEADY_RATE,
                                    BenchMetrics.PIPELINE_CPU,
                                    BenchMetrics.STATE_GROWTH),
                            List.of(BenchMetrics.TENTHS),
                            () -> new ThroughputPhase(context).run())
                    .flatMap(window -> window);
            if (settings.profile()) {
                profile(stack, drainWindow, results);
            }
            List<MetricDefinition> peerMetrics = List.of(
                    BenchMetrics.PEER_PIPELINE_RATE,
                    BenchMetrics.PEER_SINK_RATE,
                    BenchMetrics.PEER_RATIO,
                    BenchMetrics.PEER_PIPELINE_BYTES_PER_ROW,
                    BenchMetrics.PEER_SINK_BYTES_PER_ROW);
            if (settings.peer()) {
                phase("side by side", results, peerMetrics, List.of(), () -> {
                    new PeerPhase(context, home).run();
                    return null;
                });
            } else {
                results.notMeasured(peerMetrics, "the peer was switched off (--no-peer)");
            }
            ensurePipelineRunning(stack);
            phase(
                    "MQTT",
                    results,
                    List.of(
                            BenchMetrics.MQTT_PUBLISH_RATE,
                            BenchMetrics.MQTT_END_TO_END_RATE,
                            BenchMetrics.MQTT_KAFKA_RATE,
                            BenchMetrics.MQTT_ACKNOWLEDGED,
                            BenchMetrics.MQTT_LOST,
                            BenchMetrics.MQTT_DUPLICATES,
                            BenchMetrics.MQTT_BROKER_CPU,
                            BenchMetrics.MQTT_CONNECT_CPU),
                    List.of(),
                    () -> {
                        timedWindow(
                                stack, results, IssueTargets.MQTT_WINDOW, () -> new MqttThroughputPhase(context).run());
                        return null;
                    });
            ensurePipelineRunning(stack);
            phase(
                    "latency",
                    results,
                    all.stream()
                            .filter(metric -> metric.key().startsWith("latency."))
                            .toList(),
                    List.of(BenchMetrics.HOPS),
                    () -> {
                        new LatencyPhase(context).run();
                        return null;
                    });
            ensurePipelineRunning(stack);
            phase(
                    "time travel",
                    results,
                    List.of(BenchMetrics.TIME_TRAVEL_COLD, BenchMetrics.TIME_TRAVEL_WARM),
                    List.of(BenchMetrics.TIME_TRAVEL_PLAN),
                    () -> {
                        timedWindow(stack, results, TimeTravelPhase.WINDOW, () -> new TimeTravelPhase(context).run());
                        return null;
                    });
            idle(context, IdlePhase.WARM);
        } catch (RuntimeException e) {
            LOG.error("The bench run failed", e);
            console.progress("The run failed: %s", e.getMessage());
            results.note("The run ended early: " + e.getMessage());
        } finally {
            results.breakdown(cpuPerMillion(stack, results));
            console.progress("Stopping the stack ...");
            stack.close();
            try {
                Runtime.getRuntime().removeShutdownHook(stopOnExit);
            } catch (IllegalStateException e) {
                LOG.debug("The JVM is shutting down already; its hook stops the stack", e);
            }
        }
        results.note("Warm-up: the backlog figures start at the first record the pipeline processed (its start-up and"
                + " checkpoint restore excluded) and the steady-state figure at 10 % of the backlog; the MQTT figure"
                + " follows a warm-up batch that is not counted; the latency percentiles leave out the first "
                + settings.warmUp().toSeconds() + " s of the run; the side-by-side rates start when each consumer"
                + " was seen running.");
        List<Metric> metrics = results.metrics(all, "the run ended before this phase");
        Map<String, Duration> windows = new LinkedHashMap<>();
        results.windows().forEach(window -> windows.put(window.name(), window.length()));
        return new BenchResults(
                machine,
                settings.describe(),
                metrics,
                IssueTargets.evaluate(metrics, windows, settings.checkpointInterval()),
                results.breakdowns(BenchMetrics.breakdowns(), "the run ended before this phase"),
                results.notes(),
                results.profile(),
                MachineDescription.currentLoadAverage().orElse("unknown"));
    }

    /** The stack at zero load for {@code --idle}, unless that is 0 s. */
    private void idle(PhaseContext context, IdlePhase.Stage stage) {
        List<BreakdownDefinition> breakdowns = List.of(stage.cpu(), stage.threads());
        if (context.settings().idle().isZero()) {
            context.results().breakdownsNotMeasured(breakdowns, "switched off (--idle 0s)");
            return;
        }
        phase(stage.window(), context.results(), List.of(), breakdowns, () -> {
            new IdlePhase(context, stage).run();
            return null;
        });
    }

    /**
     * Runs a phase whose own code records no window for the CPU report (the MQTT and time-travel phases): the window
     * is the whole phase, its records the rows it added to {@code fleet.positions}.
     */
    private static void timedWindow(BenchStack stack, ResultCollector results, String name, VoidPhase body)
            throws Exception {
        long rowsBefore = committedRows(stack);
        Instant from = Instant.now();
        body.run();
        Instant to = Instant.now();
        results.window(new Window(name, from, to, OptionalLong.of(Math.max(0, committedRows(stack) - rowsBefore))));
    }

    private static long committedRows(BenchStack stack) throws SQLException {
        return stack.trino()
                .latestSnapshot(Tables.POSITIONS)
                .map(Snapshot::totalRecords)
                .orElse(0L);
    }

    /** The CPU of every component per million records of each window; never fails the run. */
    private Breakdown cpuPerMillion(BenchStack stack, ResultCollector results) {
        try {
            return CpuReport.perMillion(stack.cpu(), results.windows());
        } catch (RuntimeException e) {
            LOG.error("Computing the CPU per component failed", e);
            return BenchMetrics.PHASE_CPU.notMeasured("computing it failed: " + e.getMessage());
        }
    }

    /**
     * Runs a phase; when it fails, its metrics and breakdowns are recorded as not measured with the reason, and the
     * run goes on.
     */
    private <T> Optional<T> phase(
            String name,
            ResultCollector results,
            List<MetricDefinition> metrics,
            List<BreakdownDefinition> breakdowns,
            PhaseBody<T> body) {
        try {
            return Optional.ofNullable(body.run());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            String reason = "the run was interrupted during the " + name + " phase";
            results.notMeasured(metrics, reason);
            results.breakdownsNotMeasured(breakdowns, reason);
            throw new IllegalStateException("Interrupted during the " + name + " phase", e);
        } catch (Exception e) {
            if (Thread.currentThread().isInterrupted() || causedByInterrupt(e)) {
                // An interrupt wrapped by a client library (JDBC, futures) still means: stop the run.
                Thread.currentThread().interrupt();
                String reason = "the run was interrupted during the " + name + " phase";
                results.notMeasured(metrics, reason);
                results.breakdownsNotMeasured(breakdowns, reason);
                throw new IllegalStateException("Interrupted during the " + name + " phase", e);
            }
            LOG.error("The {} phase failed", name, e);
            String reason = "the " + name + " phase failed: " + e.getMessage();
            console.progress("  %s", reason);
            results.notMeasured(metrics, reason);
            results.breakdownsNotMeasured(breakdowns, reason);
            return Optional.empty();
        }
    }

    private static boolean causedByInterrupt(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedException) {
                return true;
            }
        }
        return false;
    }

    private void ensurePipelineRunning(BenchStack stack) {
        if (stack.ensurePipelineRunning()) {
            console.progress("Started the pipeline again");
        }
    }

    /**
     * Summarises the flight recording of the pipeline JVM that drained the backlog. It is written when that JVM exits,
     * so the pipeline is restarted once here.
     */
    private void profile(BenchStack stack, Optional<DrainWindow> window, ResultCollector results) {
        if (window.isEmpty()) {
            results.profileLine("No profile: the throughput phase did not complete.");
            return;
        }
        console.progress("Profile: restarting the pipeline so that its JVM writes the flight recording");
        stack.stopPipeline();
        stack.startPipeline();
        long pid = window.get().pipelineProcessId();
        try (Stream<Path> files = Files.list(stack.profileDirectory())) {
            Optional<Path> recording = files.filter(
                            file -> file.getFileName().toString().contains("-pid-" + pid + "-"))
                    .findFirst();
            if (recording.isEmpty()) {
                results.profileLine("No profile: no flight recording of pipeline process " + pid + " in "
                        + stack.profileDirectory());
                return;
            }
            FlightRecordingSummary summary = FlightRecordingSummary.read(
                    recording.get(), window.get().from(), window.get().to());
            results.profileLine(String.format(
                    Locale.ROOT,
                    "Recording %s, window %s to %s (the drain):",
                    recording.get().getFileName(),
                    window.get().from(),
                    window.get().to()));
            summary.describe(TOP_METHODS).forEach(results::profileLine);
            summary.describe(TOP_METHODS).forEach(line -> console.progress("  %s", line));
        } catch (IOException e) {
            results.profileLine("No profile: cannot read the flight recording: " + e.getMessage());
        }
    }

    @FunctionalInterface
    private interface PhaseBody<T> {
        T run() throws Exception;
    }

    @FunctionalInterface
    private interface VoidPhase {
        void run() throws Exception;
    }
}
