package io.fleetlake.bench.phase;

import static java.util.Objects.requireNonNull;

import io.fleetlake.bench.BenchStack;
import io.fleetlake.bench.load.BacklogProducer.ProduceResult;
import io.fleetlake.bench.load.PayloadEncoder;
import io.fleetlake.bench.phase.DrainMonitor.Drain;
import io.fleetlake.bench.report.BenchMetrics;
import io.fleetlake.bench.report.Breakdown;
import io.fleetlake.bench.report.Metric;
import io.fleetlake.bench.report.ResultCollector.Window;
import io.fleetlake.model.Tables;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeoutException;

/**
 * Phase 1: sustained throughput Kafka -> Flink -> Iceberg + Redis with exactly-once. The pipeline is stopped while a
 * backlog of realistic positions (the fleet model's vehicles, each device's own Avro version or JSON) is produced
 * into {@code gps.raw.positions}, then started again and timed while it drains the backlog.
 */
public final class ThroughputPhase {
    /** The drain's window in the CPU report. */
    public static final String WINDOW = "throughput drain";

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
        PayloadEncoder encoder = new PayloadEncoder();
        Backlog.Produced production = Backlog.produce(context, records, encoder::asDevice);
        Backlog backlog = production.backlog();
        ProduceResult produced = production.result();
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
            context.results().add(Metric.notMeasured(BenchMetrics.STATE_GROWTH, reason));
            context.results().breakdown(BenchMetrics.TENTHS.notMeasured(reason));
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
        context.results().window(new Window(WINDOW, drain.firstRecord(), drain.end(), OptionalLong.of(records)));
        recordTenths(drain, records);
        recordStateGrowth(drain, records);
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

    /** The rate in each tenth of the backlog, so that a slowdown as the pipeline's state grows shows. */
    private void recordTenths(Drain drain, long records) {
        List<Optional<Double>> rates = drain.tenthRates(records);
        if (rates.stream().allMatch(Optional::isEmpty)) {
            context.results()
                    .breakdown(BenchMetrics.TENTHS.notMeasured(
                            "the 100 ms Redis samples did not resolve a tenth of the backlog (backlog too small)"));
            return;
        }
        List<Breakdown.Row> rows = new ArrayList<>();
        for (int tenth = 0; tenth < rates.size(); tenth++) {
            rows.add(new Breakdown.Row(
                    String.format(Locale.ROOT, "%d-%d %%", tenth * 10, tenth * 10 + 10),
                    List.of(rates.get(tenth), drain.secondsTo(tenth / 10.0), drain.secondsTo((tenth + 1) / 10.0))));
        }
        context.results()
                .breakdown(BenchMetrics.TENTHS.measured(
                        "share of the backlog",
                        List.of("rate msg/s", "from s", "to s"),
                        rows,
                        List.of(String.format(
                                Locale.ROOT,
                                "Progress from the Redis state of 64 sampled vehicles every 100 ms; seconds since the"
                                        + " first record of the %,d was seen; the first tenth includes the pipeline's"
                                        + " warm-up, the last one ends when every sampled vehicle was current (the final"
                                        + " Iceberg commit is not in it).",
                                records))));
    }

    /**
     * The state-growth target of issue 13: the steady rate of a {@value BenchMetrics#STATE_GROWTH_RECORDS}-record
     * backlog within 10 % of a {@value BenchMetrics#STATE_GROWTH_BASELINE_RECORDS}-record run's. The first 300,000
     * records of the long backlog are such a run (same start, same state), so one run measures both: the steady window
     * of a 300,000-record run (10 % to 90 %, records 30,000 to 270,000) against the long backlog's own steady window.
     */
    private void recordStateGrowth(Drain drain, long records) {
        long baseline = BenchMetrics.STATE_GROWTH_BASELINE_RECORDS;
        if (records < BenchMetrics.STATE_GROWTH_RECORDS) {
            context.results()
                    .add(Metric.notMeasured(
                            BenchMetrics.STATE_GROWTH,
                            String.format(
                                    Locale.ROOT,
                                    "needs a backlog of %,d records or more (this one: %,d); run `fleet bench --records"
                                            + " %d`",
                                    BenchMetrics.STATE_GROWTH_RECORDS,
                                    records,
                                    BenchMetrics.STATE_GROWTH_RECORDS)));
            return;
        }
        Optional<Double> whole = drain.steadyRate(records);
        Optional<Double> first = drain.rateBetween(baseline * 0.1 / records, baseline * 0.9 / records, records);
        if (whole.isEmpty() || first.isEmpty()) {
            context.results()
                    .add(Metric.notMeasured(
                            BenchMetrics.STATE_GROWTH,
                            "the 100 ms Redis samples did not catch the steady window of the first 300,000 records or"
                                    + " of the whole backlog"));
            return;
        }
        context.results()
                .add(Metric.measured(
                        BenchMetrics.STATE_GROWTH,
                        whole.get() / first.get(),
                        String.format(
                                Locale.ROOT,
                                "steady rate of the whole backlog (10 %% to 90 %% of %,d records) %,.0f msg/s / steady"
                                        + " rate of its first %,d records (records %,d to %,d, the window a %,d-record run"
                                        + " measures) %,.0f msg/s",
                                records,
                                whole.get(),
                                baseline,
                                baseline / 10,
                                baseline * 9 / 10,
                                baseline,
                                first.get())));
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
