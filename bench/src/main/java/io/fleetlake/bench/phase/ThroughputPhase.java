package io.fleetlake.bench.phase;

import static java.util.Objects.requireNonNull;

import io.fleetlake.bench.BenchStack;
import io.fleetlake.bench.load.BacklogProducer;
import io.fleetlake.bench.load.BacklogProducer.ProduceResult;
import io.fleetlake.bench.load.BacklogTimeline.BacklogSpan;
import io.fleetlake.bench.load.PayloadEncoder;
import io.fleetlake.bench.phase.DrainMonitor.Drain;
import io.fleetlake.bench.report.BenchMetrics;
import io.fleetlake.bench.report.Metric;
import io.fleetlake.model.Tables;
import io.fleetlake.model.Topics;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * Phase 1: sustained throughput Kafka -> Flink -> Iceberg + Redis with exactly-once. The pipeline is stopped while a
 * backlog of realistic positions (the fleet model's vehicles, each device's own Avro version or JSON) is produced
 * into {@code gps.raw.positions}, then started again and timed while it drains the backlog.
 */
public final class ThroughputPhase {
    private final PhaseContext context;

    public ThroughputPhase(PhaseContext context) {
        this.context = requireNonNull(context, "context is null");
    }

    /** @return the window in which the pipeline drained the backlog, for the flight recording summary */
    public Optional<DrainWindow> run() throws InterruptedException, SQLException {
        BenchStack stack = context.stack();
        long records = context.settings().records();
        long baseline = stack.trino()
                .latestSnapshot(Tables.POSITIONS)
                .map(snapshot -> snapshot.totalRecords())
                .orElse(0L);

        context.console()
                .progress("Throughput: stopping the pipeline so that a backlog of %,d records builds up", records);
        stack.stopPipeline();
        BacklogSpan span = context.timeline()
                .next(
                        Instant.now(),
                        context.settings().fixInterval(),
                        records,
                        context.feed().vehicles().size());
        Duration interval = span.fixInterval();
        Instant start = span.start();
        Backlog backlog = new Backlog(context.feed().vehicles(), start, interval, records);
        PayloadEncoder encoder = new PayloadEncoder();
        ProduceResult produced = new BacklogProducer(stack.kafkaBootstrapServers())
                .produce(
                        Topics.RAW_POSITIONS,
                        context.feed().rounds(start, interval, records),
                        encoder::asDevice,
                        sent -> context.console().progress("  produced %,d", sent));
        context.results()
                .add(Metric.measured(
                        BenchMetrics.PRODUCER_RATE,
                        produced.rate(),
                        String.format(
                                Locale.ROOT,
                                "%,d records in %.1f s from one producer thread, first send to last"
                                        + " acknowledgement, while the pipeline was stopped",
                                produced.records(),
                                produced.elapsed().toMillis() / 1000.0)));
        context.console()
                .progress(
                        "  produced %,d records at %,.0f msg/s; starting the pipeline",
                        produced.records(), produced.rate());

        stack.startPipeline();
        Optional<ProcessHandle> pipeline = stack.pipelineProcess();
        Optional<Duration> cpuBefore =
                pipeline.flatMap(process -> process.info().totalCpuDuration());
        Drain drain;
        try {
            drain = new DrainMonitor(stack, context.console())
                    .await(backlog, baseline + records, context.settings().phaseTimeout());
        } catch (TimeoutException e) {
            String reason = "the backlog did not drain: " + e.getMessage();
            context.results().add(Metric.notMeasured(BenchMetrics.DRAIN_RATE, reason));
            context.results().add(Metric.notMeasured(BenchMetrics.STEADY_RATE, reason));
            context.results().add(Metric.notMeasured(BenchMetrics.PIPELINE_CPU, reason));
            return Optional.empty();
        }
        Optional<Duration> cpuAfter = pipeline.flatMap(process -> process.info().totalCpuDuration());

        double drainSeconds = Drain.seconds(drain.firstRecord(), drain.end());
        context.results()
                .add(Metric.measured(
                        BenchMetrics.DRAIN_RATE,
                        drain.drainRate(records),
                        String.format(
                                Locale.ROOT,
                                "backlog of %,d records drained in %.1f s: from the first record seen in"
                                        + " Redis (pipeline start-up and checkpoint restore excluded) to the Iceberg commit holding"
                                        + " all of them (%s) and Redis holding every vehicle's newest fix",
                                records,
                                drainSeconds,
                                drain.committed().committedAt())));
        drain.steadyRate(records)
                .ifPresentOrElse(
                        rate -> context.results()
                                .add(Metric.measured(
                                        BenchMetrics.STEADY_RATE,
                                        rate,
                                        "processing rate between the first moments 10 % and 90 % of the backlog were"
                                                + " processed (progress from the Redis state of 64 sampled vehicles, polled"
                                                + " every 100 ms); the warm-up before 10 % and the final commit wait are"
                                                + " excluded")),
                        () -> context.results()
                                .add(Metric.notMeasured(
                                        BenchMetrics.STEADY_RATE,
                                        "the 100 ms Redis samples did not catch both the 10 % and the 90 % point (backlog too"
                                                + " small)")));
        if (cpuBefore.isPresent() && cpuAfter.isPresent()) {
            double cpuSeconds = cpuAfter.get().minus(cpuBefore.get()).toMillis() / 1000.0;
            context.results()
                    .add(Metric.measured(
                            BenchMetrics.PIPELINE_CPU,
                            cpuSeconds / records * 1_000_000,
                            String.format(
                                    Locale.ROOT,
                                    "user + system CPU of the pipeline JVM from its job running to the end"
                                            + " of the drain: %.1f CPU-s for %,d records (Kafka, S3, catalog and Redis processes not"
                                            + " included)",
                                    cpuSeconds,
                                    records)));
        } else {
            context.results()
                    .add(Metric.notMeasured(
                            BenchMetrics.PIPELINE_CPU,
                            "the operating system did not report the pipeline process's CPU time"));
        }
        long rows = stack.trino().single("SELECT count(*) FROM " + Tables.qualified(Tables.POSITIONS));
        context.results()
                .note(String.format(
                        Locale.ROOT,
                        "Throughput: Trino count(*) of fleet.positions after the"
                                + " drain = %,d (expected %,d = %,d before + %,d produced).",
                        rows,
                        baseline + records,
                        baseline,
                        records));
        context.console()
                .progress(
                        "  drained in %.1f s: %,.0f msg/s end to end; Trino counts %,d rows",
                        drainSeconds, drain.drainRate(records), rows);
        return Optional.of(new DrainWindow(
                drain.firstRecord(),
                drain.end(),
                pipeline.map(ProcessHandle::pid).orElse(-1L)));
    }

    /**
     * When the pipeline drained the backlog, and the process that did it.
     *
     * @param pipelineProcessId -1 when it could not be found
     */
    public record DrainWindow(Instant from, Instant to, long pipelineProcessId) {
        public DrainWindow {
            requireNonNull(from, "from is null");
            requireNonNull(to, "to is null");
        }
    }
}
