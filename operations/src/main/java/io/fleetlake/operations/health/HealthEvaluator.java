package io.fleetlake.operations.health;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Tables;
import io.fleetlake.model.Topics;
import io.fleetlake.operations.health.HealthReport.Check;
import io.fleetlake.operations.health.HealthReport.Status;
import io.fleetlake.operations.health.HealthSnapshot.IngestActivity;
import io.fleetlake.operations.health.HealthSnapshot.MaintenanceRun;
import io.fleetlake.operations.inspect.CatalogInspector.TableCommits;
import io.fleetlake.operations.inspect.ConnectInspector.ConnectorState;
import io.fleetlake.operations.inspect.ConnectInspector.IngestWorkerHealth;
import io.fleetlake.operations.inspect.ConnectInspector.TaskState;
import io.fleetlake.operations.inspect.ConsumerLagInspector.PartitionLag;
import io.fleetlake.operations.inspect.DeadLetterInspector.DeadLetterCounts;
import io.fleetlake.operations.inspect.FlinkInspector.Checkpoint;
import io.fleetlake.operations.inspect.FlinkInspector.PipelineJob;
import io.fleetlake.operations.inspect.RedisInspector.Freshness;
import io.fleetlake.operations.status.ComponentStatus;
import io.fleetlake.operations.status.StackStatusFile.StackStatus;
import io.fleetlake.operations.verify.IngestHopReconciliation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Judges a {@link HealthSnapshot} against {@link HealthThresholds}: a pure function, so that every rule is unit-tested
 * on snapshots built by hand. The rules mirror the alert rules in {@code deploy/prometheus/rules}, for one moment
 * instead of a time range.
 */
public final class HealthEvaluator {
    /** The checkpoint interval assumed while the pipeline's job cannot be asked (the pipeline's default). */
    static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofSeconds(10);

    private static final String POSITIONS = Tables.qualified(Tables.POSITIONS);

    private final HealthThresholds thresholds;

    public HealthEvaluator(HealthThresholds thresholds) {
        this.thresholds = requireNonNull(thresholds, "thresholds is null");
    }

    public HealthReport evaluate(HealthSnapshot snapshot) {
        requireNonNull(snapshot, "snapshot is null");
        Instant now = snapshot.takenAt();
        List<Check> checks = new ArrayList<>();
        components(snapshot, checks);
        snapshot.supervisor().ifPresent(status -> supervisor(status, now, checks));
        lag(snapshot, checks);
        commits(snapshot, checks);
        deadLetters(snapshot, checks);
        redis(snapshot, checks);
        connector(snapshot, checks);
        snapshot.ingestHop().ifPresent(reading -> checks.add(ingestHop(reading)));
        pipeline(snapshot.pipeline(), now, checks);
        snapshot.maintenance().ifPresent(reading -> maintenance(reading, now, checks));
        return new HealthReport(now, checks);
    }

    private static void components(HealthSnapshot snapshot, List<Check> checks) {
        snapshot.components()
                .forEach((name, up) -> checks.add(
                        up
                                ? new Check("components", name, Status.OK, "up")
                                : new Check("components", name, Status.FAIL, "down: its health probe fails")));
    }

    private void supervisor(StackStatus status, Instant now, List<Check> checks) {
        if (!status.launcherRunning()) {
            checks.add(new Check(
                    "supervisor",
                    "launcher",
                    Status.FAIL,
                    "the launcher (pid " + status.launcherPid() + ") no longer runs: this is the last run's status"));
            return;
        }
        for (ComponentStatus component : status.components()) {
            String restarts = component.restarts() + " restart(s)"
                    + component
                            .lastFailure()
                            .map(failure -> ", last failure: " + failure)
                            .orElse("")
                    + component.lastFailureAt().map(at -> " at " + at).orElse("");
            Status verdict;
            String detail;
            switch (component.state()) {
                case GAVE_UP -> {
                    verdict = Status.FAIL;
                    detail = "given up on after " + restarts;
                }
                case RESTARTING -> {
                    verdict = Status.FAIL;
                    detail = "ended by itself and is being restarted; " + restarts;
                }
                case STARTING -> {
                    // Optional (query side): ingestion runs without it, so the stack is degraded, not down.
                    verdict = Status.WARN;
                    detail = "degraded: not healthy since the stack started, being started again with backoff; "
                            + restarts;
                }
                default -> {
                    boolean recent = component
                            .lastFailureAt()
                            .map(at -> at.isAfter(now.minus(thresholds.restartWindow())))
                            .orElse(false);
                    verdict = recent ? Status.WARN : Status.OK;
                    detail = "running, " + restarts
                            + (recent ? " (restarted within " + format(thresholds.restartWindow()) + ")" : "");
                }
            }
            checks.add(new Check("supervisor", component.name(), verdict, detail));
        }
    }

    private void lag(HealthSnapshot snapshot, List<Check> checks) {
        snapshot.lag().forEach((group, reading) -> {
            if (reading.error().isPresent()) {
                checks.add(new Check(
                        "lag",
                        group,
                        Status.FAIL,
                        "cannot read: " + reading.error().get()));
                return;
            }
            List<PartitionLag> partitions = reading.value().get();
            if (partitions.isEmpty()) {
                checks.add(new Check(
                        "lag", group, Status.WARN, "the group has committed no offset yet (has the pipeline run?)"));
            }
            for (PartitionLag partition : partitions) {
                boolean lagging = partition.age().compareTo(thresholds.maxLag()) > 0;
                checks.add(new Check(
                        "lag",
                        group + " " + partition.topic() + "/" + partition.partition(),
                        lagging ? Status.FAIL : Status.OK,
                        partition.records() + " records, " + format(partition.age())
                                + (lagging
                                        ? ": the oldest unconsumed record waited longer than "
                                                + format(thresholds.maxLag())
                                        : "")));
            }
        });
    }

    private void commits(HealthSnapshot snapshot, List<Check> checks) {
        Instant now = snapshot.takenAt();
        Duration interval = snapshot.pipeline().checkpointInterval().orElse(DEFAULT_CHECKPOINT_INTERVAL);
        Duration limit = interval.multipliedBy(thresholds.commitIntervals());
        boolean recordsWait = snapshot.lag().values().stream()
                .flatMap(reading -> reading.value().stream())
                .flatMap(List::stream)
                .anyMatch(partition -> partition.records() > 0);
        snapshot.commits().forEach((table, reading) -> {
            if (reading.error().isPresent()) {
                checks.add(new Check(
                        "commits",
                        table,
                        Status.FAIL,
                        "cannot read: " + reading.error().get()));
                return;
            }
            TableCommits commits = reading.value().get();
            if (commits.lastDataCommit().isEmpty()) {
                checks.add(new Check("commits", table, Status.OK, "no data committed yet"));
                return;
            }
            Duration age = age(commits.lastDataCommit().get(), now);
            String facts = "last data commit " + format(age) + " ago, " + commits.snapshots() + " snapshots";
            boolean stalled = table.equals(POSITIONS) && recordsWait && age.compareTo(limit) > 0;
            checks.add(
                    stalled
                            ? new Check(
                                    "commits",
                                    table,
                                    Status.FAIL,
                                    facts + ": no commit for " + thresholds.commitIntervals()
                                            + " checkpoint intervals (" + format(limit) + ") while records wait")
                            : new Check("commits", table, Status.OK, facts));
        });
    }

    private void deadLetters(HealthSnapshot snapshot, List<Check> checks) {
        String subject = "last " + format(thresholds.deadLetterWindow());
        if (snapshot.deadLetters().error().isPresent()) {
            checks.add(new Check(
                    "dead letters",
                    subject,
                    Status.FAIL,
                    "cannot read: " + snapshot.deadLetters().error().get()));
            return;
        }
        DeadLetterCounts counts = snapshot.deadLetters().value().get();
        long appended = snapshot.rawAppended().value().orElse(0L);
        double rate = counts.total() / (double) thresholds.deadLetterWindow().toSeconds();
        double share = counts.total() / (double) Math.max(1, appended);
        String reasons = counts.byReason().isEmpty()
                ? "none"
                : new TreeMap<>(counts.byReason())
                        .entrySet().stream()
                                .map(entry -> entry.getKey() + " " + entry.getValue())
                                .collect(Collectors.joining(", "));
        String facts = counts.total() + " dead letters (" + reasons + ")" + (counts.truncated() ? " or more" : "")
                + String.format(
                        Locale.ROOT,
                        ", %.2f/s, %.1f%% of %d records appended to the raw topic",
                        rate,
                        share * 100,
                        appended);
        boolean high = rate > thresholds.minDeadLetterRate() && share > thresholds.maxDeadLetterShare();
        checks.add(
                high
                        ? new Check(
                                "dead letters",
                                subject,
                                Status.FAIL,
                                facts
                                        + String.format(
                                                Locale.ROOT,
                                                ": more than %.1f%% dead-lettered",
                                                thresholds.maxDeadLetterShare() * 100))
                        : new Check("dead letters", subject, Status.OK, facts));
    }

    private void redis(HealthSnapshot snapshot, List<Check> checks) {
        if (snapshot.redis().error().isPresent()) {
            checks.add(new Check(
                    "redis",
                    "freshness",
                    Status.FAIL,
                    "cannot read: " + snapshot.redis().error().get()));
            return;
        }
        Freshness freshness = snapshot.redis().value().get();
        if (freshness.vehicles() == 0) {
            checks.add(new Check("redis", "freshness", Status.OK, "no vehicle yet"));
            return;
        }
        Duration newest = freshness.newest().orElse(Duration.ZERO);
        String facts = freshness.vehicles() + " vehicles; last_seen newest " + format(newest) + ", median "
                + freshness.median().map(HealthEvaluator::format).orElse("?") + ", oldest "
                + freshness.oldest().map(HealthEvaluator::format).orElse("?") + " ago";
        Optional<Instant> newestRaw = snapshot.newestRawRecord().value().flatMap(value -> value);
        boolean trafficFlows = newestRaw
                .map(at -> age(at, snapshot.takenAt()).compareTo(thresholds.maxRedisAge()) < 0)
                .orElse(false);
        boolean stale = trafficFlows && newest.compareTo(thresholds.maxRedisAge()) > 0;
        checks.add(
                stale
                        ? new Check(
                                "redis",
                                "freshness",
                                Status.FAIL,
                                facts + ": no position newer than " + format(thresholds.maxRedisAge())
                                        + " although the raw topic has newer records")
                        : new Check("redis", "freshness", Status.OK, facts));
    }

    private static void connector(HealthSnapshot snapshot, List<Check> checks) {
        if (snapshot.connector().error().isPresent()) {
            checks.add(new Check(
                    "ingest",
                    "connector",
                    Status.FAIL,
                    "cannot read: " + snapshot.connector().error().get()));
            return;
        }
        ConnectorState state = snapshot.connector().value().get();
        String tasks = state.tasks().isEmpty()
                ? "no task"
                : state.tasks().stream()
                        .map(task -> "task " + task.id() + " " + task.state()
                                + task.failure()
                                        .map(failure -> " (" + failure + ")")
                                        .orElse(""))
                        .collect(Collectors.joining(", "));
        String facts = state.connector() + " " + state.state() + ", " + tasks;
        if (!state.running()) {
            checks.add(new Check(
                    "ingest", "connector", Status.FAIL, facts + ": not RUNNING, positions wait in the MQTT broker"));
            return;
        }
        checks.add(new Check("ingest", "connector", Status.OK, facts));
        // The worker's own verdict: its tasks run here, their MQTT clients are connected, no message waits too long.
        if (snapshot.ingestHealth().error().isPresent()) {
            checks.add(new Check(
                    "ingest",
                    "messages moving",
                    Status.FAIL,
                    "cannot read: " + snapshot.ingestHealth().error().get()));
        } else {
            IngestWorkerHealth worker = snapshot.ingestHealth().value().get();
            String pending = worker.pending() + " message(s) pending"
                    + (worker.pending() > 0
                            ? ", the oldest for " + format(Duration.ofMillis(worker.oldestPendingMillis()))
                            : "");
            checks.add(
                    worker.healthy()
                            ? new Check(
                                    "ingest",
                                    "messages moving",
                                    Status.OK,
                                    "the worker's health check passes; " + pending)
                            : new Check(
                                    "ingest",
                                    "messages moving",
                                    Status.FAIL,
                                    "the worker's health check fails: " + String.join("; ", worker.problems()) + " ("
                                            + pending + ")"));
        }
        snapshot.ingest().ifPresent(reading -> {
            if (reading.error().isPresent()) {
                checks.add(new Check(
                        "ingest",
                        "records moving",
                        Status.WARN,
                        "unknown: " + reading.error().get()));
                return;
            }
            IngestActivity activity = reading.value().get();
            String moved =
                    "in " + format(activity.window()) + " the MQTT broker received " + activity.publishesReceived()
                            + " publishes and the raw topic grew by " + activity.recordsAppended() + " offsets";
            boolean stuck = activity.publishesReceived() > 0 && activity.recordsAppended() == 0;
            checks.add(
                    stuck
                            ? new Check(
                                    "ingest", "records moving", Status.FAIL, moved + ": RUNNING but not moving records")
                            : new Check("ingest", "records moving", Status.OK, moved));
        });
        for (TaskState task : state.tasks()) {
            task.failure()
                    .ifPresent(failure -> checks.add(new Check("ingest", "task " + task.id(), Status.WARN, failure)));
        }
    }

    /** The hop before Kafka over the sample window, as {@code fleet verify} reconciles it. */
    private static Check ingestHop(Reading<IngestHopReconciliation> reading) {
        String subject = "hop before Kafka";
        if (reading.error().isPresent()) {
            return new Check(
                    "ingest",
                    subject,
                    Status.WARN,
                    "unknown: " + reading.error().get());
        }
        IngestHopReconciliation hop = reading.value().get();
        String dropped = hop.dropped()
                ? String.format(
                        Locale.ROOT,
                        "; the broker dropped %,d messages",
                        hop.droppedIncrease().getAsLong())
                : "";
        if (!hop.reconciled()) {
            return new Check(
                    "ingest",
                    subject,
                    hop.dropped() ? Status.FAIL : Status.WARN,
                    "not reconciled: " + hop.notReconciled().get() + dropped);
        }
        String facts = String.format(
                Locale.ROOT,
                "in %s the MQTT broker accepted %,d positions; %,d reached %s, %,d were refused, %,d are held for the"
                        + " ingest subscription",
                format(hop.window()),
                hop.accepted(),
                hop.rawRecords(),
                Topics.RAW_POSITIONS,
                hop.ingestRefused(),
                hop.queuedAtEnd().getAsLong());
        if (hop.gap() > 0) {
            return new Check(
                    "ingest",
                    subject,
                    Status.FAIL,
                    facts + String.format(Locale.ROOT, ": %,d never reached Kafka", hop.gap()) + dropped);
        }
        return new Check("ingest", subject, hop.dropped() ? Status.FAIL : Status.OK, facts + dropped);
    }

    private void pipeline(PipelineJob job, Instant now, List<Check> checks) {
        if (!job.running()) {
            checks.add(new Check("pipeline", "job", Status.FAIL, "not RUNNING: " + job.state()));
            return;
        }
        String restarts =
                job.numRestarts().isPresent() ? job.numRestarts().getAsLong() + " restart(s)" : "restarts unknown";
        Optional<Instant> lastRestart = job.lastRestart();
        boolean recent = lastRestart
                .map(at -> at.isAfter(now.minus(thresholds.restartWindow())))
                .orElse(false);
        checks.add(new Check(
                "pipeline",
                "job",
                recent ? Status.WARN : Status.OK,
                "RUNNING, " + restarts
                        + lastRestart
                                .map(at -> ", last restart " + format(age(at, now)) + " ago")
                                .orElse("") + (recent ? " (within " + format(thresholds.restartWindow()) + ")" : "")));
        Duration interval = job.checkpointInterval().orElse(DEFAULT_CHECKPOINT_INTERVAL);
        Duration limit = interval.multipliedBy(thresholds.commitIntervals());
        Optional<Checkpoint> last = job.lastCheckpoint();
        if (last.isEmpty()) {
            checks.add(new Check(
                    "pipeline", "checkpoints", Status.OK, "none completed yet (interval " + format(interval) + ")"));
            return;
        }
        Duration age = age(last.get().completedAt(), now);
        String facts = String.format(
                Locale.ROOT,
                "last completed %s ago, took %s, %d bytes; %d completed, %d failed; interval %s",
                format(age),
                format(last.get().duration()),
                last.get().sizeBytes(),
                job.checkpointsCompleted(),
                job.checkpointsFailed(),
                format(interval));
        checks.add(
                age.compareTo(limit) > 0
                        ? new Check(
                                "pipeline", "checkpoints", Status.FAIL, facts + ": none completed for " + format(limit))
                        : new Check("pipeline", "checkpoints", Status.OK, facts));
    }

    private void maintenance(Reading<List<MaintenanceRun>> reading, Instant now, List<Check> checks) {
        if (reading.error().isPresent()) {
            checks.add(new Check(
                    "maintenance",
                    "service",
                    Status.WARN,
                    "cannot read: " + reading.error().get()));
            return;
        }
        if (reading.value().get().isEmpty()) {
            checks.add(new Check("maintenance", "service", Status.OK, "no run yet"));
        }
        for (MaintenanceRun run : reading.value().get()) {
            Duration age = age(run.endedAt(), now);
            String facts = "last run ended " + format(age) + " ago, " + (run.succeeded() ? "succeeded" : "FAILED");
            Status status = !run.succeeded()
                    ? Status.FAIL
                    : age.compareTo(thresholds.maxMaintenanceAge()) > 0 ? Status.WARN : Status.OK;
            checks.add(new Check(
                    "maintenance",
                    run.table(),
                    status,
                    facts + (status == Status.WARN ? ": no run for " + format(thresholds.maxMaintenanceAge()) : "")));
        }
    }

    private static Duration age(Instant at, Instant now) {
        Duration age = Duration.between(at, now);
        return age.isNegative() ? Duration.ZERO : age;
    }

    /** {@code 850 ms}, {@code 4.2 s}, {@code 3 min 20 s}, {@code 2 h 5 min}. */
    static String format(Duration duration) {
        long millis = duration.toMillis();
        if (millis < 1_000) {
            return millis + " ms";
        }
        if (millis < 60_000) {
            return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
        }
        long seconds = duration.toSeconds();
        if (seconds < 3600) {
            return seconds / 60 + " min" + (seconds % 60 == 0 ? "" : " " + seconds % 60 + " s");
        }
        return seconds / 3600 + " h" + (seconds % 3600 / 60 == 0 ? "" : " " + seconds % 3600 / 60 + " min");
    }
}
