package io.fleetlake.bench.phase;

import static java.util.Objects.requireNonNull;

import io.fleetlake.bench.BenchStack;
import io.fleetlake.bench.load.BacklogProducer.ProduceResult;
import io.fleetlake.bench.load.PayloadEncoder;
import io.fleetlake.bench.observe.ConsumerLag;
import io.fleetlake.bench.observe.TrinoPollingConnection.Snapshot;
import io.fleetlake.bench.peer.PeerSink;
import io.fleetlake.bench.peer.TwinTable;
import io.fleetlake.bench.phase.DrainMonitor.Drain;
import io.fleetlake.bench.report.BenchMetrics;
import io.fleetlake.bench.report.Metric;
import io.fleetlake.bench.report.MetricDefinition;
import io.fleetlake.bench.report.ResultCollector.Window;
import io.fleetlake.model.Tables;
import io.fleetlake.model.Topics;
import io.fleetlake.stack.process.FleetHome;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Phase 5: the Iceberg Kafka Connect sink side by side with the pipeline, on the same records. For each pair a backlog
 * of JSON positions (event time as epoch milliseconds, which the sink's JsonConverter reads into the timestamptz
 * column) is produced into {@code gps.raw.positions} while both are stopped; then the pipeline drains it, is stopped,
 * and the sink drains the same records (its consumer group starts at the backlog). One after the other, never at the
 * same time: both are CPU-bound on this machine. Each rate is records / (Iceberg commit holding the last record - the
 * consumer seen running), so both include their first-record warm-up and up to one commit interval of waiting for
 * the final commit, and neither includes its JVM start.
 */
public final class PeerPhase {
    /** The pipeline's drain in the CPU report (the first pair's). */
    public static final String PIPELINE_WINDOW = "peer: pipeline";
    /** The Iceberg Kafka Connect sink's drain in the CPU report (the first pair's). */
    public static final String SINK_WINDOW = "peer: KC sink";

    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private final PhaseContext context;
    private final FleetHome home;

    public PeerPhase(PhaseContext context, FleetHome home) {
        this.context = requireNonNull(context, "context is null");
        this.home = requireNonNull(home, "home is null");
    }

    public void run() throws InterruptedException, SQLException, TimeoutException {
        BenchStack stack = context.stack();
        TwinTable.ensure(stack.settings());
        int partitions = createControlTopic();
        List<Pair> pairs = new ArrayList<>();
        try (ConsumerLag kafka = new ConsumerLag(stack.kafkaBootstrapServers())) {
            for (int number = 1; number <= context.settings().peerPairs(); number++) {
                pairs.add(runPair(number, kafka, partitions));
            }
        } finally {
            // A pair that failed while the pipeline drained leaves it running; starting it again would fail and hide
            // why the pair failed.
            if (stack.ensurePipelineRunning()) {
                context.console().progress("Side by side: started the pipeline again");
            }
        }
        double pipeline = median(pairs.stream().mapToDouble(Pair::pipelineRate).toArray());
        double sink = median(pairs.stream().mapToDouble(Pair::sinkRate).toArray());
        String over = pairs.size() == 1 ? "one pair" : "median of " + pairs.size() + " alternating pairs";
        long records = context.settings().peerRecords();
        context.results()
                .add(Metric.measured(
                        BenchMetrics.PEER_PIPELINE_RATE,
                        pipeline,
                        String.format(
                                Locale.ROOT,
                                "%s, %,d JSON records each: records / (Iceberg commit holding the last one -"
                                        + " pipeline job seen running after a restart from its checkpoint)",
                                over,
                                records)));
        context.results()
                .add(Metric.measured(
                        BenchMetrics.PEER_SINK_RATE,
                        sink,
                        String.format(
                                Locale.ROOT,
                                "%s, the same records: records / (Iceberg commit holding the last one - the"
                                        + " sink and its %d tasks seen running), commit interval = checkpoint interval",
                                over,
                                partitions)));
        context.results()
                .add(Metric.measured(
                        BenchMetrics.PEER_RATIO, pipeline / sink, "pipeline rate / sink rate (" + over + ")"));
        addBytesPerRow(BenchMetrics.PEER_PIPELINE_BYTES_PER_ROW, Tables.POSITIONS, "every row of the run");
        addBytesPerRow(BenchMetrics.PEER_SINK_BYTES_PER_ROW, TwinTable.NAME, "the sink's rows");
        for (Pair pair : pairs) {
            context.results()
                    .note(String.format(
                            Locale.ROOT,
                            "Side by side, pair %d: pipeline %,.0f msg/s (%s CPU-s"
                                    + " per million), Iceberg Kafka Connect sink %,.0f msg/s (%s CPU-s per million), JSON backlog"
                                    + " produced at %,.0f msg/s; run one after the other, never at the same time.",
                            pair.number(),
                            pair.pipelineRate(),
                            pair.pipelineCpu().map(PeerPhase::format).orElse("unknown"),
                            pair.sinkRate(),
                            pair.sinkCpu().map(PeerPhase::format).orElse("unknown"),
                            pair.producerRate()));
        }
    }

    private Pair runPair(int number, ConsumerLag kafka, int partitions)
            throws InterruptedException, SQLException, TimeoutException {
        BenchStack stack = context.stack();
        long records = context.settings().peerRecords();
        context.console()
                .progress("Side by side, pair %d: stopping the pipeline; producing %,d JSON records", number, records);
        stack.stopPipeline();
        String connectorName = "iceberg-peer-" + number;
        PeerSink sink = stack.stopsWithStack(new PeerSink(
                stack.settings(), home, connectorName, context.settings().checkpointInterval(), partitions));
        Map<TopicPartition, Long> backlogStart = kafka.endOffsets(Topics.RAW_POSITIONS);
        kafka.commitOffsets(sink.consumerGroup(), backlogStart);
        long pipelineBaseline = total(Tables.POSITIONS);
        long sinkBaseline = total(TwinTable.NAME);

        PayloadEncoder encoder = new PayloadEncoder();
        Backlog.Produced production =
                Backlog.produce(context, records, fix -> encoder.asJsonWithEpochMillis(fix.position()));
        Backlog backlog = production.backlog();
        ProduceResult produced = production.result();

        context.console().progress("  pipeline drains the %,d records", records);
        Instant pipelineRunning = stack.startPipeline();
        Optional<ProcessHandle> pipelineProcess = stack.pipelineProcess();
        Optional<Duration> pipelineCpuBefore =
                pipelineProcess.flatMap(process -> process.info().totalCpuDuration());
        Drain drain = new DrainMonitor(stack, context.console())
                .await(backlog, pipelineBaseline + records, context.settings().phaseTimeout());
        Optional<Duration> pipelineCpuAfter =
                pipelineProcess.flatMap(process -> process.info().totalCpuDuration());
        double pipelineRate =
                records / Drain.seconds(pipelineRunning, drain.committed().committedAt());
        context.results()
                .window(new Window(
                        PIPELINE_WINDOW, pipelineRunning, drain.committed().committedAt(), OptionalLong.of(records)));
        context.console().progress("  pipeline: %,.0f msg/s; stopping it", pipelineRate);
        stack.stopPipeline();

        context.console().progress("  Iceberg Kafka Connect sink drains the same records");
        double sinkRate;
        Optional<Double> sinkCpu;
        try (sink) {
            sink.startWorker(START_TIMEOUT);
            Instant sinkRunning = sink.registerAndAwaitRunning(START_TIMEOUT);
            Optional<ProcessHandle> sinkProcess = sink.processHandle();
            Optional<Duration> sinkCpuBefore =
                    sinkProcess.flatMap(process -> process.info().totalCpuDuration());
            Snapshot committed = awaitTotal(TwinTable.NAME, sinkBaseline + records);
            Optional<Duration> sinkCpuAfter =
                    sinkProcess.flatMap(process -> process.info().totalCpuDuration());
            sinkRate = records / Drain.seconds(sinkRunning, committed.committedAt());
            context.results()
                    .window(new Window(SINK_WINDOW, sinkRunning, committed.committedAt(), OptionalLong.of(records)));
            sinkCpu = perMillion(sinkCpuBefore, sinkCpuAfter, records);
        } finally {
            stack.forget(sink);
        }
        context.console().progress("  sink: %,.0f msg/s", sinkRate);
        return new Pair(
                number,
                produced.rate(),
                pipelineRate,
                perMillion(pipelineCpuBefore, pipelineCpuAfter, records),
                sinkRate,
                sinkCpu);
    }

    private Snapshot awaitTotal(String table, long target) throws InterruptedException, SQLException, TimeoutException {
        return CommitWait.awaitTotal(
                context.stack(),
                context.console(),
                table,
                target,
                context.settings().phaseTimeout());
    }

    /**
     * Stored bytes per row of the table's live data files. Both tables have the same columns and write settings; the
     * sink leaves the lineage and enrichment columns null, which Parquet stores in a few bits per row.
     */
    private void addBytesPerRow(MetricDefinition metric, String table, String rows) throws SQLException {
        List<long[]> totals = context.stack()
                .trino()
                .query(
                        "SELECT coalesce(sum(file_size_in_bytes), 0), coalesce(sum(record_count), 0) FROM "
                                + Tables.qualified("\"" + table + "$files\"") + " WHERE content = 0",
                        result -> new long[] {result.getLong(1), result.getLong(2)});
        long bytes = totals.get(0)[0];
        long records = totals.get(0)[1];
        if (records == 0) {
            context.results().notMeasured(List.of(metric), Tables.qualified(table) + " has no rows");
            return;
        }
        context.results()
                .add(Metric.measured(
                        metric,
                        (double) bytes / records,
                        String.format(
                                Locale.ROOT,
                                "%,d bytes of data files / %,d rows (%s), table properties of fleet.positions",
                                bytes,
                                records,
                                rows)));
    }

    private long total(String table) throws SQLException {
        return CommitWait.total(context.stack(), table);
    }

    /** Creates the sink's control topic (one partition); returns the partitions of the raw topic. */
    private int createControlTopic() throws InterruptedException {
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, context.stack().kafkaBootstrapServers()))) {
            try {
                admin.createTopics(List.of(new NewTopic(PeerSink.CONTROL_TOPIC, 1, (short) 1)))
                        .all()
                        .get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException("Cannot create " + PeerSink.CONTROL_TOPIC, e.getCause());
                }
            } catch (TimeoutException e) {
                throw new IllegalStateException("Creating " + PeerSink.CONTROL_TOPIC + " took longer than 30 s", e);
            }
            try {
                return admin.describeTopics(List.of(Topics.RAW_POSITIONS))
                        .allTopicNames()
                        .get(30, TimeUnit.SECONDS)
                        .get(Topics.RAW_POSITIONS)
                        .partitions()
                        .size();
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("Cannot describe " + Topics.RAW_POSITIONS, e);
            }
        }
    }

    private static Optional<Double> perMillion(Optional<Duration> before, Optional<Duration> after, long records) {
        if (before.isEmpty() || after.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(after.get().minus(before.get()).toMillis() / 1000.0 / records * 1_000_000);
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private record Pair(
            int number,
            double producerRate,
            double pipelineRate,
            Optional<Double> pipelineCpu,
            double sinkRate,
            Optional<Double> sinkCpu) {}
}
