package io.fleetlake.operations.health;

import static java.util.Objects.requireNonNull;

import io.fleetlake.operations.inspect.CatalogInspector.TableCommits;
import io.fleetlake.operations.inspect.ConnectInspector.ConnectorState;
import io.fleetlake.operations.inspect.ConnectInspector.IngestWorkerHealth;
import io.fleetlake.operations.inspect.ConsumerLagInspector.PartitionLag;
import io.fleetlake.operations.inspect.DeadLetterInspector.DeadLetterCounts;
import io.fleetlake.operations.inspect.FlinkInspector.PipelineJob;
import io.fleetlake.operations.inspect.RedisInspector.Freshness;
import io.fleetlake.operations.status.StackStatusFile.StackStatus;
import io.fleetlake.operations.verify.IngestHopReconciliation;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the stack's servers said at one moment, each source read on its own so that one unreachable server leaves the
 * rest of the picture intact. {@link HealthEvaluator} judges it; fleet-exporter turns it into metrics.
 *
 * @param takenAt when the reading started
 * @param components each component's probe: up or not
 * @param lag per consumer group, the lag of each partition it committed
 * @param commits per table ({@code namespace.table}), its newest data commit
 * @param deadLetters dead letters appended in the dead-letter window, by reason
 * @param rawAppended records appended to the raw topic in the same window
 * @param newestRawRecord the timestamp of the newest record in the raw topic, if it has any
 * @param redis how current the state in Redis is
 * @param connector the MQTT source connector and its tasks
 * @param ingestHealth the Connect worker's own verdict on whether messages move ({@code /ingest/health})
 * @param ingest what moved during the sample window, when it was watched
 * @param ingestHop the hop before Kafka reconciled over the same window (positions the MQTT broker accepted against the
 *     raw topic), when it was watched
 * @param pipeline the pipeline's Flink job
 * @param maintenance the last maintenance run of each table, when the service's metrics are known
 * @param supervisor the launcher's supervisor statuses, for the embedded stack
 */
public record HealthSnapshot(
        Instant takenAt,
        Map<String, Boolean> components,
        Map<String, Reading<List<PartitionLag>>> lag,
        Map<String, Reading<TableCommits>> commits,
        Reading<DeadLetterCounts> deadLetters,
        Reading<Long> rawAppended,
        Reading<Optional<Instant>> newestRawRecord,
        Reading<Freshness> redis,
        Reading<ConnectorState> connector,
        Reading<IngestWorkerHealth> ingestHealth,
        Optional<Reading<IngestActivity>> ingest,
        Optional<Reading<IngestHopReconciliation>> ingestHop,
        PipelineJob pipeline,
        Optional<Reading<List<MaintenanceRun>>> maintenance,
        Optional<StackStatus> supervisor) {
    public HealthSnapshot {
        requireNonNull(takenAt, "takenAt is null");
        components = ordered(requireNonNull(components, "components is null"));
        lag = ordered(requireNonNull(lag, "lag is null"));
        commits = ordered(requireNonNull(commits, "commits is null"));
        requireNonNull(deadLetters, "deadLetters is null");
        requireNonNull(rawAppended, "rawAppended is null");
        requireNonNull(newestRawRecord, "newestRawRecord is null");
        requireNonNull(redis, "redis is null");
        requireNonNull(connector, "connector is null");
        requireNonNull(ingestHealth, "ingestHealth is null");
        requireNonNull(ingest, "ingest is null");
        requireNonNull(ingestHop, "ingestHop is null");
        requireNonNull(pipeline, "pipeline is null");
        requireNonNull(maintenance, "maintenance is null");
        requireNonNull(supervisor, "supervisor is null");
    }

    private static <K, V> Map<K, V> ordered(Map<K, V> map) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }

    /**
     * What moved while {@code fleet status} watched: publishes the MQTT broker received and records the raw topic
     * gained.
     */
    public record IngestActivity(Duration window, long publishesReceived, long recordsAppended) {
        public IngestActivity {
            requireNonNull(window, "window is null");
        }
    }

    /** The last maintenance run of one table, from the maintenance service's metrics. */
    public record MaintenanceRun(String table, Instant endedAt, boolean succeeded) {
        public MaintenanceRun {
            requireNonNull(table, "table is null");
            requireNonNull(endedAt, "endedAt is null");
        }
    }
}
