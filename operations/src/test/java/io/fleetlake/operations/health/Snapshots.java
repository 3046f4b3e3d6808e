package io.fleetlake.operations.health;

import io.fleetlake.model.Tables;
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
import io.fleetlake.operations.inspect.RedisInspector;
import io.fleetlake.operations.inspect.RedisInspector.Freshness;
import io.fleetlake.operations.status.StackStatusFile.StackStatus;
import io.fleetlake.operations.verify.IngestHopReconciliation;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A healthy stack's snapshot, built by hand, to be changed one fact at a time: every health rule is tested by breaking
 * exactly what it watches.
 */
final class Snapshots {
    static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    static final String POSITIONS = Tables.qualified(Tables.POSITIONS);

    Map<String, Boolean> components = new LinkedHashMap<>(Map.of("kafka", true, "redis", true));
    List<PartitionLag> lag = List.of(lag(0, 120, Duration.ofSeconds(4)), lag(1, 0, Duration.ZERO));
    Reading<List<PartitionLag>> lagReading = null;
    Instant lastPositionsCommit = NOW.minusSeconds(5);
    Reading<TableCommits> positionsReading = null;
    Map<String, Long> deadLetters = Map.of("OUTSIDE_REGION", 3L);
    long rawAppended = 20_000;
    Instant newestRaw = NOW.minusSeconds(1);
    Freshness redis = new Freshness(
            340,
            Optional.of(Duration.ofMinutes(3)),
            Optional.of(Duration.ofSeconds(6)),
            Optional.of(Duration.ofSeconds(1)),
            Optional.of(new RedisInspector.Memory(200_000_000, 268_435_456, 4)));
    ConnectorState connector =
            new ConnectorState("mqtt-positions", "RUNNING", List.of(new TaskState(0, "RUNNING", Optional.empty())));
    Reading<IngestWorkerHealth> ingestHealth = Reading.of(new IngestWorkerHealth(true, List.of(), 2, 40));
    Optional<Reading<IngestActivity>> ingest =
            Optional.of(Reading.of(new IngestActivity(Duration.ofSeconds(5), 300, 300)));
    Optional<Reading<IngestHopReconciliation>> ingestHop = Optional.empty();
    PipelineJob pipeline = new PipelineJob(
            Optional.of("job-1"),
            "RUNNING",
            OptionalLong.of(0),
            Optional.empty(),
            Optional.of(Duration.ofSeconds(10)),
            Optional.of(new Checkpoint(41, NOW.minusSeconds(3), Duration.ofMillis(400), 1_200_000)),
            41,
            0);
    Optional<Reading<List<MaintenanceRun>>> maintenance =
            Optional.of(Reading.of(List.of(new MaintenanceRun(POSITIONS, NOW.minus(Duration.ofMinutes(12)), true))));
    Optional<StackStatus> supervisor = Optional.empty();

    static PartitionLag lag(int partition, long records, Duration age) {
        return new PartitionLag("fleet-pipeline", "gps.raw.positions", partition, 1000, 1000 + records, records, age);
    }

    HealthSnapshot build() {
        Map<String, Reading<TableCommits>> commits = new LinkedHashMap<>();
        commits.put(
                POSITIONS,
                positionsReading != null
                        ? positionsReading
                        : Reading.of(new TableCommits(POSITIONS, Optional.ofNullable(lastPositionsCommit), 40)));
        commits.put(
                "fleet.vehicle_minutes",
                Reading.of(new TableCommits("fleet.vehicle_minutes", Optional.of(NOW.minusSeconds(600)), 8)));
        return new HealthSnapshot(
                NOW,
                components,
                Map.of("fleet-pipeline", lagReading != null ? lagReading : Reading.of(lag)),
                commits,
                Reading.of(new DeadLetterCounts(NOW.minus(Duration.ofMinutes(5)), deadLetters, false)),
                Reading.of(rawAppended),
                Reading.of(Optional.ofNullable(newestRaw)),
                Reading.of(redis),
                Reading.of(connector),
                ingestHealth,
                ingest,
                ingestHop,
                pipeline,
                maintenance,
                supervisor);
    }
}
