package io.fleetlake.operations.health;

import static io.fleetlake.operations.health.Snapshots.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.operations.health.HealthReport.Check;
import io.fleetlake.operations.health.HealthSnapshot.IngestActivity;
import io.fleetlake.operations.health.HealthSnapshot.MaintenanceRun;
import io.fleetlake.operations.inspect.ConnectInspector.ConnectorState;
import io.fleetlake.operations.inspect.ConnectInspector.IngestWorkerHealth;
import io.fleetlake.operations.inspect.ConnectInspector.TaskState;
import io.fleetlake.operations.inspect.FlinkInspector.Checkpoint;
import io.fleetlake.operations.inspect.FlinkInspector.PipelineJob;
import io.fleetlake.operations.inspect.RedisInspector.Freshness;
import io.fleetlake.operations.status.ComponentStatus;
import io.fleetlake.operations.status.StackStatusFile.StackStatus;
import io.fleetlake.operations.verify.BrokerCounters;
import io.fleetlake.operations.verify.IngestHopReconciliation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Each rule of {@link HealthEvaluator}, tested by breaking exactly what it watches in an otherwise healthy stack. */
class HealthEvaluatorTest {
    private final HealthEvaluator evaluator = new HealthEvaluator(HealthThresholds.from(ConfigSource.empty()));
    private final Snapshots snapshot = new Snapshots();

    @Test
    void aHealthyStackHasNoFailureAndExitsZero() {
        HealthReport report = evaluator.evaluate(snapshot.build());

        assertThat(report.failures()).isEmpty();
        assertThat(report.healthy()).isTrue();
        assertThat(report.checks())
                .extracting(Check::area)
                .contains("components", "lag", "commits", "dead letters", "redis", "ingest", "pipeline", "maintenance");
    }

    @Test
    void aComponentDownIsAFailure() {
        snapshot.components.put("redis", false);

        assertThat(failures()).containsExactly("components / redis: down: its health probe fails");
    }

    @Test
    void lagAboveTheLimitIsAFailureAndReportsRecordsAndSeconds() {
        snapshot.lag =
                List.of(Snapshots.lag(0, 5_000, Duration.ofSeconds(45)), Snapshots.lag(1, 10, Duration.ofSeconds(2)));

        assertThat(failures())
                .containsExactly("lag / fleet-pipeline gps.raw.positions/0: 5000 records, 45.0 s: the oldest unconsumed"
                        + " record waited longer than 30.0 s");
    }

    @Test
    void lagAtTheLimitIsNotAFailure() {
        snapshot.lag = List.of(Snapshots.lag(0, 5_000, Duration.ofSeconds(30)));

        assertThat(failures()).isEmpty();
    }

    @Test
    void anUnreadableGroupIsAFailure() {
        snapshot.lagReading = Reading.failed("Cannot read the offsets of consumer group fleet-pipeline: timeout");

        assertThat(failures())
                .containsExactly("lag / fleet-pipeline: cannot read: Cannot read the offsets of consumer"
                        + " group fleet-pipeline: timeout");
    }

    @Test
    void noCommitForThreeCheckpointIntervalsWhileRecordsWaitIsAFailure() {
        snapshot.lastPositionsCommit = NOW.minusSeconds(31);

        assertThat(failures())
                .containsExactly("commits / fleet.positions: last data commit 31.0 s ago, 40 snapshots: no commit for"
                        + " 3 checkpoint intervals (30.0 s) while records wait");
    }

    @Test
    void anOldCommitOfAnIdlePipelineIsNotAFailure() {
        snapshot.lastPositionsCommit = NOW.minus(Duration.ofMinutes(10));
        snapshot.lag = List.of(Snapshots.lag(0, 0, Duration.ZERO));

        assertThat(failures()).isEmpty();
    }

    @Test
    void theCommitLimitFollowsTheJobsCheckpointInterval() {
        snapshot.lastPositionsCommit = NOW.minusSeconds(100);
        snapshot.pipeline = withInterval(Duration.ofMinutes(1));

        assertThat(failures()).isEmpty();
    }

    @Test
    void deadLettersAboveTheShareAndTheRateAreAFailure() {
        snapshot.deadLetters = Map.of("OUTSIDE_REGION", 1_500L, "SPEED_TOO_HIGH", 500L);
        snapshot.rawAppended = 20_000;

        assertThat(failures())
                .containsExactly(
                        "dead letters / last 5 min: 2000 dead letters (OUTSIDE_REGION 1500, SPEED_TOO_HIGH 500),"
                                + " 6.67/s, 10.0% of 20000 records appended to the raw topic: more than 5.0% dead-lettered");
    }

    @Test
    void aHighShareOfATrickleIsNotAFailure() {
        snapshot.deadLetters = Map.of("MALFORMED_PAYLOAD", 20L);
        snapshot.rawAppended = 40;

        assertThat(failures()).isEmpty();
    }

    @Test
    void redisWithoutNewPositionsWhileTheRawTopicMovesIsAFailure() {
        snapshot.redis = new Freshness(
                340,
                Optional.of(Duration.ofMinutes(10)),
                Optional.of(Duration.ofMinutes(5)),
                Optional.of(Duration.ofMinutes(3)));

        assertThat(failures())
                .singleElement()
                .asString()
                .startsWith("redis / freshness: 340 vehicles; last_seen newest"
                        + " 3 min, median 5 min, oldest 10 min ago: no position newer than 2 min");
    }

    @Test
    void oldPositionsWithoutTrafficAreNotAFailure() {
        snapshot.redis = new Freshness(
                340,
                Optional.of(Duration.ofHours(2)),
                Optional.of(Duration.ofHours(1)),
                Optional.of(Duration.ofHours(1)));
        snapshot.newestRaw = NOW.minus(Duration.ofHours(1));

        assertThat(failures()).isEmpty();
    }

    @Test
    void aPausedConnectorIsAFailure() {
        snapshot.connector =
                new ConnectorState("mqtt-positions", "PAUSED", List.of(new TaskState(0, "PAUSED", Optional.empty())));

        assertThat(failures())
                .containsExactly("ingest / connector: mqtt-positions PAUSED, task 0 PAUSED: not RUNNING, positions wait"
                        + " in the MQTT broker");
    }

    @Test
    void aFailedTaskOfARunningConnectorIsAFailure() {
        snapshot.connector = new ConnectorState(
                "mqtt-positions",
                "RUNNING",
                List.of(new TaskState(
                        0, "FAILED", Optional.of("org.apache.kafka.connect.errors.ConnectException: x"))));

        assertThat(failures())
                .singleElement()
                .asString()
                .startsWith("ingest / connector: mqtt-positions RUNNING, task 0"
                        + " FAILED (org.apache.kafka.connect.errors.ConnectException: x): not RUNNING");
    }

    @Test
    void aRunningConnectorThatMovesNothingWhileDevicesPublishIsAFailure() {
        snapshot.ingest = Optional.of(Reading.of(new IngestActivity(Duration.ofSeconds(5), 250, 0)));

        assertThat(failures())
                .containsExactly("ingest / records moving: in 5.0 s the MQTT broker received 250 publishes and the raw"
                        + " topic grew by 0 offsets: RUNNING but not moving records");
    }

    @Test
    void aFailingWorkerHealthCheckIsAFailureWithItsProblems() {
        snapshot.ingestHealth = Reading.of(new IngestWorkerHealth(
                false,
                List.of("Task 0 has 120 message(s) pending; the oldest has waited 75 s for Kafka, more than 60 s"),
                120,
                75_000));

        assertThat(failures())
                .containsExactly("ingest / messages moving: the worker's health check fails: Task 0 has 120 message(s)"
                        + " pending; the oldest has waited 75 s for Kafka, more than 60 s (120 message(s) pending, the"
                        + " oldest for 1 min 15 s)");
    }

    @Test
    void anUnreachableWorkerHealthCheckIsAFailure() {
        snapshot.ingestHealth = Reading.failed("Cannot ask the Connect worker at http://127.0.0.1:18083: refused");

        assertThat(failures())
                .containsExactly("ingest / messages moving: cannot read: Cannot ask the Connect worker at"
                        + " http://127.0.0.1:18083: refused");
    }

    @Test
    void acceptedPositionsThatNeverReachedKafkaAreAFailure() {
        snapshot.ingestHop = Optional.of(Reading.of(hop(500, 320, 30, 0)));

        assertThat(failures())
                .containsExactly("ingest / hop before Kafka: in 5.0 s the MQTT broker accepted 500 positions; 320"
                        + " reached gps.raw.positions, 0 were refused, 30 are held for the ingest subscription: 150"
                        + " never reached Kafka");
    }

    @Test
    void positionsHeldForTheIngestSubscriptionAreNoFailureButADropIs() {
        snapshot.ingestHop = Optional.of(Reading.of(hop(500, 320, 180, 0)));
        assertThat(failures()).isEmpty();

        snapshot.ingestHop = Optional.of(Reading.of(hop(500, 320, 180, 4)));
        assertThat(failures())
                .containsExactly("ingest / hop before Kafka: in 5.0 s the MQTT broker accepted 500 positions; 320"
                        + " reached gps.raw.positions, 0 were refused, 180 are held for the ingest subscription; the"
                        + " broker dropped 4 messages");
    }

    private static IngestHopReconciliation hop(long accepted, long raw, long queued, long dropped) {
        return IngestHopReconciliation.compare(
                new BrokerCounters(Map.of("tcp", 1_000L), OptionalLong.of(0), OptionalLong.of(0), Optional.empty()),
                new BrokerCounters(
                        Map.of("tcp", 1_000L + accepted),
                        OptionalLong.of(dropped),
                        OptionalLong.of(queued),
                        Optional.empty()),
                raw,
                0,
                Duration.ofSeconds(5));
    }

    @Test
    void nothingPublishedAndNothingMovedIsNotAFailure() {
        snapshot.ingest = Optional.of(Reading.of(new IngestActivity(Duration.ofSeconds(5), 0, 0)));

        assertThat(failures()).isEmpty();
    }

    @Test
    void aPipelineJobThatIsNotRunningIsAFailure() {
        snapshot.pipeline = new PipelineJob(
                Optional.of("job-1"),
                "RESTARTING",
                OptionalLong.empty(),
                Optional.of(NOW.minusSeconds(2)),
                Optional.empty(),
                Optional.empty(),
                0,
                0);

        assertThat(failures()).containsExactly("pipeline / job: not RUNNING: RESTARTING");
    }

    @Test
    void aRecentJobRestartIsAWarning() {
        snapshot.pipeline = new PipelineJob(
                Optional.of("job-1"),
                "RUNNING",
                OptionalLong.of(2),
                Optional.of(NOW.minus(Duration.ofMinutes(3))),
                Optional.of(Duration.ofSeconds(10)),
                Optional.of(new Checkpoint(7, NOW.minusSeconds(2), Duration.ofMillis(300), 1000)),
                7,
                0);

        HealthReport report = evaluator.evaluate(snapshot.build());

        assertThat(report.healthy()).isTrue();
        assertThat(report.warnings())
                .extracting(Check::detail)
                .containsExactly("RUNNING, 2 restart(s), last restart 3 min ago (within 15 min)");
    }

    @Test
    void noCheckpointForThreeIntervalsIsAFailure() {
        snapshot.pipeline = new PipelineJob(
                Optional.of("job-1"),
                "RUNNING",
                OptionalLong.of(0),
                Optional.empty(),
                Optional.of(Duration.ofSeconds(10)),
                Optional.of(new Checkpoint(7, NOW.minusSeconds(45), Duration.ofMillis(300), 1000)),
                7,
                3);

        assertThat(failures())
                .singleElement()
                .asString()
                .startsWith("pipeline / checkpoints: last completed 45.0 s ago")
                .endsWith("none completed for 30.0 s");
    }

    @Test
    void aFailedMaintenanceRunIsAFailureAndAnOldOneAWarning() {
        snapshot.maintenance = Optional.of(Reading.of(List.of(
                new MaintenanceRun(Snapshots.POSITIONS, NOW.minus(Duration.ofMinutes(5)), false),
                new MaintenanceRun("fleet.vehicle_minutes", NOW.minus(Duration.ofHours(3)), true))));

        HealthReport report = evaluator.evaluate(snapshot.build());

        assertThat(report.failures())
                .extracting(check -> check.subject() + ": " + check.detail())
                .containsExactly("fleet.positions: last run ended 5 min ago, FAILED");
        assertThat(report.warnings())
                .extracting(check -> check.subject() + ": " + check.detail())
                .containsExactly("fleet.vehicle_minutes: last run ended 3 h ago, succeeded: no run for 2 h");
    }

    @Test
    void aComponentTheSupervisorGaveUpOnIsAFailure() {
        snapshot.supervisor = Optional.of(new StackStatus(
                ProcessHandle.current().pid(),
                NOW.minus(Duration.ofHours(1)),
                NOW,
                List.of(
                        status("pipeline", ComponentStatus.State.GAVE_UP, 5),
                        status("kafka", ComponentStatus.State.RUNNING, 0))));

        assertThat(failures())
                .singleElement()
                .asString()
                .startsWith("supervisor / pipeline: given up on after 5 restart(s)");
    }

    @Test
    void anOptionalComponentStillStartingDegradesTheStackWithoutFailingIt() {
        snapshot.supervisor = Optional.of(new StackStatus(
                ProcessHandle.current().pid(),
                NOW.minus(Duration.ofHours(1)),
                NOW,
                List.of(
                        status("trino", ComponentStatus.State.STARTING, 2),
                        status("kafka", ComponentStatus.State.RUNNING, 0))));

        HealthReport report = evaluator.evaluate(snapshot.build());

        assertThat(report.failures()).extracting(Check::subject).doesNotContain("trino");
        assertThat(report.warnings())
                .extracting(check -> check.area() + " / " + check.subject() + ": " + check.detail())
                .contains("supervisor / trino: degraded: not healthy since the stack started, being started again"
                        + " with backoff; 2 restart(s), last failure: exit code 1 at " + NOW.minusSeconds(30));
    }

    @Test
    void thresholdsAreConfigurable() {
        HealthEvaluator strict =
                new HealthEvaluator(HealthThresholds.from(ConfigSource.of(Map.of(HealthThresholds.MAX_LAG, "3s"))));

        assertThat(strict.evaluate(snapshot.build()).failures())
                .extracting(Check::subject)
                .containsExactly("fleet-pipeline gps.raw.positions/0");
    }

    private List<String> failures() {
        return evaluator.evaluate(snapshot.build()).failures().stream()
                .map(check -> check.area() + " / " + check.subject() + ": " + check.detail())
                .toList();
    }

    private static PipelineJob withInterval(Duration interval) {
        return new PipelineJob(
                Optional.of("job-1"),
                "RUNNING",
                OptionalLong.of(0),
                Optional.empty(),
                Optional.of(interval),
                Optional.of(new Checkpoint(3, NOW.minusSeconds(20), Duration.ofMillis(300), 1000)),
                3,
                0);
    }

    private static ComponentStatus status(String name, ComponentStatus.State state, int restarts) {
        return new ComponentStatus(
                name,
                state,
                OptionalLong.empty(),
                restarts,
                restarts,
                OptionalInt.empty(),
                restarts > 0 ? Optional.of("exit code 1") : Optional.empty(),
                restarts > 0 ? Optional.of(NOW.minusSeconds(30)) : Optional.empty(),
                Optional.of(Path.of("logs", name + ".log")));
    }
}
