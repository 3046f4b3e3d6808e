package io.fleetlake.operations.verify;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fleetlake.model.Tables;
import io.fleetlake.model.Topics;
import io.fleetlake.operations.inspect.FlinkInspector.PipelineRestarts;
import io.fleetlake.operations.status.ComponentStatus;
import io.fleetlake.operations.status.StackStatusFile.StackStatus;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Everything {@code fleet verify} found, as text for people and JSON for scripts.
 *
 * @param ingestRefused MQTT messages the ingest connector dead-lettered because Kafka could not take them (never in
 *     the raw topic; kept in the dead-letter topic, not lost)
 * @param pipelineWait how the wait for the pipeline went ({@code --wait}); empty when verify did not wait
 * @param rechecked whether lost or conflicting records were checked against a second read of the tables
 * @param ingestHop the hop before Kafka: what the MQTT broker accepted against what reached the raw topic during the
 *     verification
 */
public record VerifyReport(
        VerifyScope scope,
        Reconciliation reconciliation,
        long ingestRefused,
        RedisComparison redis,
        PipelineRestarts pipelineRestarts,
        Optional<StackStatus> supervision,
        Optional<PipelineWait> pipelineWait,
        boolean rechecked,
        Duration elapsed,
        IngestHopReconciliation ingestHop) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public VerifyReport {
        requireNonNull(scope, "scope is null");
        requireNonNull(reconciliation, "reconciliation is null");
        requireNonNull(redis, "redis is null");
        requireNonNull(pipelineRestarts, "pipelineRestarts is null");
        requireNonNull(supervision, "supervision is null");
        requireNonNull(pipelineWait, "pipelineWait is null");
        requireNonNull(elapsed, "elapsed is null");
        requireNonNull(ingestHop, "ingestHop is null");
    }

    /**
     * No loss, conflict, stalled record or duplicate, Redis holds every vehicle's newest position, the pipeline
     * caught up when verify waited for it, and no position the MQTT broker accepted went missing before Kafka (nor did
     * it drop any message).
     */
    public boolean passed() {
        return reconciliation.clean() && redis.clean() && ingestHop.clean() && waitedSuccessfully();
    }

    private boolean waitedSuccessfully() {
        return pipelineWait.map(PipelineWait::caughtUp).orElse(true);
    }

    /** 0 when {@link #passed()}, 1 otherwise. */
    public int exitCode() {
        return passed() ? 0 : 1;
    }

    public String toText() {
        Reconciliation r = reconciliation;
        StringBuilder text = new StringBuilder();
        line(text, "Fleet verify: %s", scope.describe());
        line(text, "");
        line(text, "%-48s %,14d", "MQTT messages refused at ingest (" + Topics.DLQ_POSITIONS + ")", ingestRefused);
        line(text, "%-48s %,14d", Topics.RAW_POSITIONS + " records (read_committed)", r.rawRecords());
        line(text, "%-48s %,14d", "  distinct (vehicle_id, event_time)", r.rawDistinctKeys());
        line(text, "%-48s %,14d", "  undecodable", r.rawUndecodable());
        line(text, "%-48s %,14d", "  in flight (not yet committed past, young)", r.pending());
        line(
                text,
                "%-48s %,14d",
                "  stalled (in flight longer than " + seconds(r.stalled().after()) + ")",
                r.stalled().records());
        line(text, "%-48s %,14d", "  written to " + Tables.qualified(Tables.POSITIONS), r.written());
        line(text, "%-48s %,14d", "  rejected to " + Tables.qualified(Tables.REJECTED_POSITIONS), r.rejected());
        line(text, "%-48s %,14d", "  resends dropped (same key, same content)", r.resendsDropped());
        line(text, "%-48s %,14d", "  conflicting (same key, other content)", r.conflictingRecords());
        line(text, "%-48s %,14d", "  lost", r.lostRecords());
        line(
                text,
                "%-48s %,14d (%,d distinct keys)",
                Tables.qualified(Tables.POSITIONS) + " rows",
                r.positionRows(),
                r.positionDistinctKeys());
        line(text, "%-48s %,14d", Tables.qualified(Tables.REJECTED_POSITIONS) + " rows", r.rejectedRows());
        r.rejectedRowsByReason().entrySet().stream()
                .sorted(java.util.Map.Entry.comparingByKey())
                .forEach(entry -> line(text, "%-48s %,14d", "  " + entry.getKey(), entry.getValue()));
        line(
                text,
                "%-48s %,14d of %,d (behind %d, missing %d, expired %d, ahead %d)",
                "Redis holds the newest position",
                redis.matching(),
                redis.vehicles(),
                redis.behind(),
                redis.missing(),
                redis.expired(),
                redis.ahead());
        line(
                text,
                "    expired: unseen for longer than pipeline.redis-vehicle-ttl (%s), Redis dropped them on purpose;"
                        + " not counted as lost",
                redis.vehicleTtl());
        redis.samples().forEach(sample -> line(text, "    %s", sample));
        if (r.keysWithoutRawRecord() > 0) {
            line(
                    text,
                    "%-48s %,14d (raw records gone by retention, or rows written around the pipeline), e.g. %s",
                    "Rows whose key no raw record has",
                    r.keysWithoutRawRecord(),
                    String.join(", ", r.keysWithoutRawRecordSamples()));
        }
        IngestHopText.append(text, ingestHop);
        line(text, "");
        line(text, "Lost:       %,d (%,d keys, %,d undecodable records)", r.lost(), r.lostKeys(), r.lostUndecodable());
        r.lostSamples().forEach(sample -> line(text, "    %s", sample));
        line(
                text,
                "Conflicting: %,d keys (a stored row of the key has other content, and no rejected row of the record)",
                r.conflictingKeys());
        r.conflictingSamples().forEach(sample -> line(text, "    %s", sample));
        line(text, "Duplicated: %,d keys (%,d extra rows)", r.duplicatedKeys(), r.duplicateRows());
        r.duplicatedSamples().forEach(sample -> line(text, "    %s", sample));
        line(text, "Stalled:    %,d records%s", r.stalled().records(), stalledText(r.stalled()));
        r.stalled()
                .partitions()
                .forEach(partition -> line(
                        text,
                        "    %s/%d from offset %,d: %,d records, the oldest received %s",
                        Topics.RAW_POSITIONS,
                        partition.partition(),
                        partition.firstOffset(),
                        partition.records(),
                        partition.oldestReceivedAt()));
        line(text, "Resends dropped: %,d", r.resendsDropped());
        r.resendsDroppedSamples().forEach(sample -> line(text, "    %s", sample));
        pipelineWait.ifPresent(wait -> line(text, "Waited for the pipeline: %s", wait.describe()));
        line(text, "");
        line(
                text,
                "Pipeline job restarts (Flink numRestarts):   %s",
                pipelineRestarts.numRestarts().isPresent()
                        ? Long.toString(pipelineRestarts.numRestarts().getAsLong())
                        : "unknown, job " + pipelineRestarts.state());
        line(text, "Supervisor restarts:                         %s", supervisionText());
        line(text, "");
        line(
                text,
                "%s in %.1f s%s",
                passed() ? "OK: nothing lost, nothing duplicated" : "FAILED: " + failureText(),
                elapsed.toMillis() / 1000.0,
                r.pending() > 0
                        ? String.format(
                                Locale.ROOT,
                                "; %,d records were in flight for less than %s and are not judged (run again, or use"
                                        + " --wait)",
                                r.pending(),
                                seconds(r.stalled().after()))
                        : "");
        return text.toString();
    }

    private static String stalledText(Reconciliation.Stalled stalled) {
        return stalled.oldestAge()
                .map(age -> String.format(
                        Locale.ROOT,
                        " waiting longer than %s for the pipeline; the oldest for %s (at %s): the pipeline is stopped,"
                                + " restarting, or cannot complete a checkpoint",
                        seconds(stalled.after()),
                        seconds(age),
                        stalled.observedAt()))
                .orElse("");
    }

    private static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%,d s", duration.toSeconds());
    }

    private String failureText() {
        StringBuilder failures = new StringBuilder();
        if (reconciliation.lost() > 0) {
            failures.append(String.format(Locale.ROOT, "%,d lost", reconciliation.lost()));
        }
        if (reconciliation.conflictingKeys() > 0) {
            separate(failures).append(String.format(Locale.ROOT, "%,d conflicting", reconciliation.conflictingKeys()));
        }
        if (reconciliation.stalled().records() > 0) {
            separate(failures)
                    .append(String.format(
                            Locale.ROOT, "%,d stalled", reconciliation.stalled().records()));
        }
        if (!waitedSuccessfully()) {
            separate(failures).append(pipelineWait.orElseThrow().describe());
        }
        if (reconciliation.duplicatedKeys() > 0) {
            separate(failures).append(String.format(Locale.ROOT, "%,d duplicated", reconciliation.duplicatedKeys()));
        }
        if (ingestHop.gap() > 0) {
            separate(failures)
                    .append(String.format(
                            Locale.ROOT, "%,d accepted by the MQTT broker never reached Kafka", ingestHop.gap()));
        }
        if (ingestHop.dropped()) {
            separate(failures)
                    .append(String.format(
                            Locale.ROOT,
                            "%,d dropped by the MQTT broker",
                            ingestHop.droppedIncrease().getAsLong()));
        }
        if (!redis.clean()) {
            separate(failures)
                    .append(String.format(
                            Locale.ROOT,
                            "Redis behind for %,d and missing %,d vehicles",
                            redis.behind(),
                            redis.missing()));
        }
        return failures.toString();
    }

    private static StringBuilder separate(StringBuilder text) {
        return text.isEmpty() ? text : text.append(", ");
    }

    private String supervisionText() {
        if (supervision.isEmpty()) {
            return "unknown (no " + io.fleetlake.operations.status.StackStatusFile.FILE_NAME + " in the data folder)";
        }
        StackStatus status = supervision.get();
        List<String> restarted = status.components().stream()
                .filter(component -> component.restarts() > 0 || component.state() != ComponentStatus.State.RUNNING)
                .map(component -> component.name() + " " + component.restarts()
                        + (component.state() == ComponentStatus.State.RUNNING ? "" : " (" + component.state() + ")"))
                .toList();
        return status.totalRestarts()
                + (restarted.isEmpty() ? "" : " (" + String.join(", ", restarted) + ")")
                + (status.launcherRunning() ? "" : "; the launcher (pid " + status.launcherPid() + ") has ended");
    }

    public String toJson() {
        Reconciliation r = reconciliation;
        ObjectNode root = JSON.createObjectNode();
        root.put("passed", passed());
        ObjectNode scopeNode = root.putObject("scope");
        scope.from().ifPresent(from -> scopeNode.put("from", from.toString()));
        scope.to().ifPresent(to -> scopeNode.put("to", to.toString()));
        scope.vehiclePrefix().ifPresent(prefix -> scopeNode.put("vehicle_prefix", prefix));
        root.put("ingest_refused", ingestRefused);
        ObjectNode raw = root.putObject("raw");
        raw.put("records", r.rawRecords());
        raw.put("distinct_keys", r.rawDistinctKeys());
        raw.put("undecodable", r.rawUndecodable());
        raw.put("pending", r.pending());
        raw.put("stalled", r.stalled().records());
        raw.put("written", r.written());
        raw.put("rejected", r.rejected());
        raw.put("resends_dropped", r.resendsDropped());
        raw.put("conflicting", r.conflictingRecords());
        raw.put("lost", r.lostRecords());
        ObjectNode positions = root.putObject("positions");
        positions.put("rows", r.positionRows());
        positions.put("distinct_keys", r.positionDistinctKeys());
        positions.put("keys_without_raw_record", r.keysWithoutRawRecord());
        ObjectNode rejected = root.putObject("rejected_positions");
        rejected.put("rows", r.rejectedRows());
        ObjectNode reasons = rejected.putObject("by_reason");
        r.rejectedRowsByReason().forEach(reasons::put);
        ObjectNode lost = root.putObject("lost");
        lost.put("total", r.lost());
        lost.put("keys", r.lostKeys());
        lost.put("undecodable_records", r.lostUndecodable());
        strings(lost.putArray("samples"), r.lostSamples());
        ObjectNode conflicting = root.putObject("conflicting");
        conflicting.put("keys", r.conflictingKeys());
        conflicting.put("records", r.conflictingRecords());
        strings(conflicting.putArray("samples"), r.conflictingSamples());
        ObjectNode stalled = root.putObject("stalled");
        stalled.put("records", r.stalled().records());
        stalled.put("after_seconds", r.stalled().after().toSeconds());
        stalled.put("observed_at", r.stalled().observedAt().toString());
        r.stalled().oldestAge().ifPresent(age -> stalled.put("oldest_age_seconds", age.toSeconds()));
        ArrayNode stalledPartitions = stalled.putArray("partitions");
        r.stalled().partitions().forEach(partition -> {
            ObjectNode node = stalledPartitions.addObject();
            node.put("partition", partition.partition());
            node.put("records", partition.records());
            node.put("first_offset", partition.firstOffset());
            node.put("oldest_received_at", partition.oldestReceivedAt().toString());
        });
        ObjectNode resends = root.putObject("resends_dropped");
        resends.put("records", r.resendsDropped());
        strings(resends.putArray("samples"), r.resendsDroppedSamples());
        ObjectNode duplicated = root.putObject("duplicated");
        duplicated.put("keys", r.duplicatedKeys());
        duplicated.put("extra_rows", r.duplicateRows());
        strings(duplicated.putArray("samples"), r.duplicatedSamples());
        ObjectNode redisNode = root.putObject("redis");
        redisNode.put("vehicles", redis.vehicles());
        redisNode.put("matching", redis.matching());
        redisNode.put("behind", redis.behind());
        redisNode.put("missing", redis.missing());
        redisNode.put("expired", redis.expired());
        redisNode.put("vehicle_ttl_seconds", redis.vehicleTtl().toSeconds());
        redisNode.put("ahead", redis.ahead());
        strings(redisNode.putArray("samples"), redis.samples());
        ObjectNode pipeline = root.putObject("pipeline");
        pipeline.put("job_state", pipelineRestarts.state());
        pipelineRestarts.jobId().ifPresent(id -> pipeline.put("job_id", id));
        pipelineRestarts.numRestarts().ifPresent(count -> pipeline.put("num_restarts", count));
        supervision.ifPresent(status -> {
            ObjectNode supervisor = root.putObject("supervisor");
            supervisor.put("launcher_pid", status.launcherPid());
            supervisor.put("launcher_running", status.launcherRunning());
            supervisor.put("total_restarts", status.totalRestarts());
            ObjectNode components = supervisor.putObject("components");
            for (ComponentStatus component : status.components()) {
                ObjectNode node = components.putObject(component.name());
                node.put("state", component.state().name());
                node.put("restarts", component.restarts());
                component.lastExitCode().ifPresent(code -> node.put("last_exit_code", code));
            }
        });
        IngestHopText.json(root.putObject("ingest_hop"), ingestHop);
        pipelineWait.ifPresent(wait -> {
            ObjectNode waitNode = root.putObject("wait");
            waitNode.put("caught_up", wait.caughtUp());
            waitNode.put("limit_seconds", wait.limit().toSeconds());
            waitNode.put("behind", wait.behind());
            waitNode.put("description", wait.describe());
        });
        root.put("rechecked", rechecked);
        root.put("elapsed_ms", elapsed.toMillis());
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("Cannot render the report as JSON", e);
        }
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }

    private static void line(StringBuilder text, String format, Object... arguments) {
        text.append(String.format(Locale.ROOT, format, arguments)).append(System.lineSeparator());
    }
}
