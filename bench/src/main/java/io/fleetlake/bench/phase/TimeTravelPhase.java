package io.fleetlake.bench.phase;

import static java.util.Objects.requireNonNull;

import io.fleetlake.bench.BenchStack;
import io.fleetlake.bench.load.BacklogProducer;
import io.fleetlake.bench.load.Fix;
import io.fleetlake.bench.load.FleetFeed;
import io.fleetlake.bench.load.PayloadEncoder;
import io.fleetlake.bench.observe.QueryProfile;
import io.fleetlake.bench.observe.TrinoPollingConnection;
import io.fleetlake.bench.observe.TrinoPollingConnection.Snapshot;
import io.fleetlake.bench.report.BenchMetrics;
import io.fleetlake.bench.report.Breakdown;
import io.fleetlake.bench.report.Metric;
import io.fleetlake.model.Tables;
import io.fleetlake.model.Topics;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.simulator.model.FleetModel;
import io.fleetlake.simulator.model.Vehicle;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Phase 4: Trino time travel over a larger history. One vehicle-day (a vehicle of its own driving yesterday, a fix
 * every 5 s by default) is produced into Kafka and committed through the pipeline; then a query {@code FOR VERSION AS
 * OF} the snapshot holding it (the day's aggregates, then the whole track in time order) is timed cold, as the first
 * query after a Trino restart, and warm, as the median of five runs after {@value #WARM_UP_RUNS} more.
 *
 * <p>Why the warm-up runs: the restart before the cold query leaves a JVM that is still compiling. Measured here (2
 * cores, busy), the pair of queries took 23 s cold, 5 to 6 s in the five runs after it (what "warm" meant before
 * issue 13), about 2 s around the tenth run, and 0.6 to 1.1 s from the twelfth on; a Trino that serves queries all
 * day is that last one.
 */
public final class TimeTravelPhase {
    /** The phase's window in the CPU report. */
    public static final String WINDOW = "time travel";

    private static final int WARM_RUNS = 5;
    /** Runs after the cold one that let Trino's JIT settle before the warm runs; not counted. */
    static final int WARM_UP_RUNS = 15;

    private static final Duration TRINO_READY_TIMEOUT = Duration.ofMinutes(2);

    private final PhaseContext context;

    public TimeTravelPhase(PhaseContext context) {
        this.context = requireNonNull(context, "context is null");
    }

    public void run() throws InterruptedException, SQLException, TimeoutException {
        BenchStack stack = context.stack();
        int fixes = context.settings().historyFixes();
        Duration interval = context.settings().historyInterval();
        Instant day = Instant.now().truncatedTo(ChronoUnit.DAYS).minus(Duration.ofDays(1));
        Vehicle source = context.feed().vehicles().get(0);
        String vehicleId = "TT-" + source.vehicleId();
        FleetFeed history = new FleetFeed(new FleetModel(
                context.stack().simulator().seed(),
                1,
                0,
                context.stack().simulator().patterns(),
                day));
        Vehicle driver = history.vehicles().get(0);
        context.console()
                .progress(
                        "Time travel: producing one vehicle-day (%,d fixes every %d s of %s) into Kafka",
                        fixes, interval.toSeconds(), day.toString().substring(0, 10));
        PayloadEncoder encoder = new PayloadEncoder();
        Iterator<Fix> dayOfFixes = new Iterator<>() {
            private int index;

            @Override
            public boolean hasNext() {
                return index < fixes;
            }

            @Override
            public Fix next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return history.renamedFix(driver, vehicleId, day.plus(interval.multipliedBy(index++)));
            }
        };
        new BacklogProducer(stack.kafkaBootstrapServers())
                .produce(Topics.RAW_POSITIONS, dayOfFixes, encoder::asDevice, sent -> {});
        String count = "SELECT count(*) FROM " + Tables.qualified(Tables.POSITIONS) + " WHERE vehicle_id = '"
                + vehicleId + "'";
        Instant deadline = Instant.now().plus(context.settings().phaseTimeout());
        long rows;
        while ((rows = stack.trino().single(count)) < fixes) {
            if (Instant.now().isAfter(deadline)) {
                throw new TimeoutException(String.format(
                        Locale.ROOT,
                        "only %,d of the %,d fixes of %s were in" + " Iceberg after %d s",
                        rows,
                        fixes,
                        vehicleId,
                        context.settings().phaseTimeout().toSeconds()));
            }
            TimeUnit.SECONDS.sleep(2);
        }
        Snapshot snapshot = stack.trino().latestSnapshot(Tables.POSITIONS).orElseThrow();
        boolean measureCold = !context.settings().quick();
        context.console()
                .progress(
                        "  %,d rows committed; snapshot %d; %s",
                        rows,
                        snapshot.snapshotId(),
                        measureCold ? "restarting Trino for the cold query" : "no cold query in --quick");
        if (measureCold) {
            stack.restartTrino();
        }

        String where = " FROM " + Tables.qualified(Tables.POSITIONS) + " FOR VERSION AS OF " + snapshot.snapshotId()
                + " WHERE vehicle_id = '" + vehicleId + "' AND event_time >= from_unixtime(" + day.getEpochSecond()
                + ") AND event_time < from_unixtime("
                + day.plus(Duration.ofDays(1)).getEpochSecond() + ")";
        String aggregates = "SELECT count(*), min(event_time), max(event_time), avg(speed_kmh), max(speed_kmh),"
                + " count_if(speed_kmh < 3), approx_distinct(route_id)" + where;
        String track =
                "SELECT event_time, latitude, longitude, speed_kmh, heading_deg" + where + " ORDER BY event_time";
        Optional<ColdRun> coldRun = Optional.empty();
        long[] warm = new long[WARM_RUNS];
        long[] warmAggregates = new long[WARM_RUNS];
        long[] warmTrack = new long[WARM_RUNS];
        long[] warmingUp = new long[WARM_UP_RUNS];
        try (TrinoPollingConnection trino =
                new TrinoPollingConnection(stack.settings().trino(TrinoUser.MONITOR))) {
            if (measureCold) {
                trino.awaitActiveNode(TRINO_READY_TIMEOUT);
                coldRun = Optional.of(timedCold(trino, aggregates, track, fixes));
            }
            for (int run = 0; run < WARM_UP_RUNS; run++) {
                warmingUp[run] = timed(trino, aggregates, track, fixes).total();
            }
            for (int run = 0; run < WARM_RUNS; run++) {
                Timing timing = timed(trino, aggregates, track, fixes);
                warm[run] = timing.total();
                warmAggregates[run] = timing.aggregates();
                warmTrack[run] = timing.track();
            }
        }
        long firstFive = median(Arrays.copyOf(warmingUp, Math.min(WARM_RUNS, WARM_UP_RUNS)));
        Arrays.sort(warm);
        String method = String.format(
                Locale.ROOT,
                "aggregates of the day, then the whole track (%,d rows) in time"
                        + " order, FOR VERSION AS OF the snapshot holding the day, over Trino JDBC: wall time until the last"
                        + " row was read",
                fixes);
        context.results()
                .add(coldRun.map(run -> Metric.measured(
                                BenchMetrics.TIME_TRAVEL_COLD,
                                run.millis(),
                                method + "; the first queries after a Trino restart"
                                        + (run.attempts() == 1
                                                ? ""
                                                : " (after " + (run.attempts() - 1) + " attempt(s) Trino refused with"
                                                        + " \"No nodes available\": planned, never run)")))
                        .orElseGet(() -> Metric.notMeasured(
                                BenchMetrics.TIME_TRAVEL_COLD,
                                "--quick keeps Trino running: the cold query needs a restart of Trino, 1 to 2"
                                        + " minutes on this machine")));
        context.results()
                .add(Metric.measured(
                        BenchMetrics.TIME_TRAVEL_WARM,
                        warm[WARM_RUNS / 2],
                        method
                                + String.format(
                                        Locale.ROOT,
                                        "; median of %d runs (%s ms) after the cold one and %d warm-up runs that"
                                                + " let Trino's JIT settle (%s ms; the median of their first %d,"
                                                + " what \"warm\" meant before issue 13: %,d ms)",
                                        WARM_RUNS,
                                        Arrays.toString(warm),
                                        WARM_UP_RUNS,
                                        Arrays.toString(warmingUp),
                                        WARM_RUNS,
                                        firstFive)));
        context.console()
                .progress(
                        "  cold %s, warm median %,d ms",
                        coldRun.map(run -> String.format(Locale.ROOT, "%,d ms", run.millis()))
                                .orElse("not measured"),
                        warm[WARM_RUNS / 2]);
        try (TrinoPollingConnection trino =
                new TrinoPollingConnection(stack.settings().trino(TrinoUser.MONITOR))) {
            recordPlan(trino, aggregates, track, snapshot, day, vehicleId, warmAggregates, warmTrack);
        } catch (SQLException | RuntimeException e) {
            // The timings above stand on their own; the explanation of them is reported as missing.
            context.results()
                    .breakdown(BenchMetrics.TIME_TRAVEL_PLAN.notMeasured(
                            "reading the query profile failed: " + e.getMessage()));
        }
    }

    /**
     * The first run after the restart. A node can still drop out of the active list for a moment right after a
     * start; a query refused for that ran nothing and is tried again, and the attempts are reported.
     */
    private static ColdRun timedCold(TrinoPollingConnection trino, String aggregates, String track, int expectedRows)
            throws SQLException, InterruptedException {
        Instant deadline = Instant.now().plus(TRINO_READY_TIMEOUT);
        for (int attempt = 1; ; attempt++) {
            try {
                return new ColdRun(timed(trino, aggregates, track, expectedRows).total(), attempt);
            } catch (SQLException e) {
                if (!TrinoPollingConnection.isNoNodesAvailable(e)
                        || Instant.now().isAfter(deadline)) {
                    throw e;
                }
            }
            TimeUnit.SECONDS.sleep(1);
        }
    }

    private record ColdRun(long millis, int attempts) {}

    /** Wall times of one run of the two queries, milliseconds. */
    private record Timing(long aggregates, long track) {
        long total() {
            return aggregates + track;
        }
    }

    /**
     * Where the warm query's time goes: Trino's own account of one more run of each query ({@code EXPLAIN ANALYZE
     * VERBOSE}: analysis, planning, execution, the Iceberg scan's files and manifests), beside the table's size in
     * files, manifests and snapshots, which the planning of a time-travel query reads.
     */
    private void recordPlan(
            TrinoPollingConnection trino,
            String aggregates,
            String track,
            Snapshot snapshot,
            Instant day,
            String vehicleId,
            long[] warmAggregates,
            long[] warmTrack)
            throws SQLException {
        QueryProfile aggregatesProfile = QueryProfile.parse(explainAnalyze(trino, aggregates));
        QueryProfile trackProfile = QueryProfile.parse(explainAnalyze(trino, track));
        List<String> figures = List.of(
                QueryProfile.ANALYSIS_MS,
                QueryProfile.PLANNING_MS,
                QueryProfile.EXECUTION_MS,
                QueryProfile.SCAN_PLANNING_MS,
                QueryProfile.DATA_MANIFESTS,
                QueryProfile.SKIPPED_DATA_MANIFESTS,
                QueryProfile.DATA_FILES,
                QueryProfile.SKIPPED_DATA_FILES,
                QueryProfile.SPLITS,
                QueryProfile.INPUT_ROWS);
        List<Breakdown.Row> rows = new ArrayList<>();
        rows.add(new Breakdown.Row(
                "wall time, median of the warm runs, ms",
                List.of(Optional.of((double) median(warmAggregates)), Optional.of((double) median(warmTrack)))));
        for (String figure : figures) {
            rows.add(new Breakdown.Row(
                    "Trino: " + figure,
                    List.of(optional(aggregatesProfile.figure(figure)), optional(trackProfile.figure(figure)))));
        }
        String positions = Tables.NAMESPACE + ".\"" + Tables.POSITIONS;
        long snapshots = trino.single("SELECT count(*) FROM " + positions + "$snapshots\"");
        long manifests = trino.single("SELECT count(*) FROM " + positions + "$manifests\"");
        List<Long> files = trino.query(
                        "SELECT count(*), coalesce(sum(record_count), 0) FROM " + positions + "$files\"",
                        result -> List.of(result.getLong(1), result.getLong(2)))
                .get(0);
        List<Long> dayFiles = trino.query(
                        "SELECT count(*), coalesce(sum(record_count), 0) FROM " + positions + "$files\" WHERE"
                                + " partition.event_time_day = DATE '"
                                + day.toString().substring(0, 10) + "'",
                        result -> List.of(result.getLong(1), result.getLong(2)))
                .get(0);
        rows.add(table("table: snapshots (each one a line of the metadata file)", snapshots));
        rows.add(table("table: manifests of the current snapshot", manifests));
        rows.add(table("table: data files of the current snapshot", files.get(0)));
        rows.add(table("table: rows of the current snapshot", files.get(1)));
        rows.add(table("table: data files of the queried day", dayFiles.get(0)));
        rows.add(table("table: rows of the queried day", dayFiles.get(1)));
        context.results()
                .breakdown(BenchMetrics.TIME_TRAVEL_PLAN.measured(
                        "figure",
                        List.of("aggregates", "track"),
                        rows,
                        List.of(String.format(
                                Locale.ROOT,
                                "One more run of each query under EXPLAIN ANALYZE VERBOSE after the warm runs (Trino's"
                                        + " own account: analysis, planning, execution; the Iceberg scan's split"
                                        + " generation metrics), FOR VERSION AS OF snapshot %d, vehicle %s; the table"
                                        + " figures are of the current snapshot (\"$snapshots\", \"$manifests\","
                                        + " \"$files\").",
                                snapshot.snapshotId(),
                                vehicleId))));
    }

    private static String explainAnalyze(TrinoPollingConnection trino, String sql) throws SQLException {
        return String.join("\n", trino.query("EXPLAIN ANALYZE VERBOSE " + sql, result -> result.getString(1)));
    }

    private static Breakdown.Row table(String label, long value) {
        return new Breakdown.Row(label, List.of(Optional.of((double) value), Optional.empty()));
    }

    private static Optional<Double> optional(OptionalDouble value) {
        return value.isPresent() ? Optional.of(value.getAsDouble()) : Optional.empty();
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static Timing timed(TrinoPollingConnection trino, String aggregates, String track, int expectedRows)
            throws SQLException {
        long start = System.nanoTime();
        long days = trino.single(aggregates);
        long between = System.nanoTime();
        int rows = trino.query(track, result -> result.getLong(2)).size();
        long end = System.nanoTime();
        if (days != expectedRows || rows != expectedRows) {
            throw new IllegalStateException(String.format(
                    Locale.ROOT,
                    "The time-travel query saw %,d / %,d rows, not" + " the %,d committed",
                    days,
                    rows,
                    expectedRows));
        }
        return new Timing(TimeUnit.NANOSECONDS.toMillis(between - start), TimeUnit.NANOSECONDS.toMillis(end - between));
    }
}
