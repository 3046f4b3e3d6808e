package io.fleetlake.metrics.flink;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.PipelineMetricNames;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Which Flink metrics the reporter serves, and under which Prometheus names: the pipeline's own counters ({@link
 * PipelineMetricNames}), records in and out per operator, backpressure and busy time per task, and the job's restarts
 * and checkpoints. Every other Flink metric is left out, so that a scrape stays small. A pure function of the metric's
 * name, its group's logical scope and its variables; deploy/prometheus/README.md lists the series.
 */
final class PipelineMetricMapping {
    /** The logical scope of an operator's metrics; a sub-group appends {@code .<group>}. */
    static final String OPERATOR_SCOPE = "taskmanager.job.task.operator";

    static final String TASK_SCOPE = "taskmanager.job.task";
    static final String JOB_MANAGER_JOB_SCOPE = "jobmanager.job";

    private static final String OPERATOR = "<operator_name>";
    private static final String TASK = "<task_name>";
    private static final String SUBTASK = "<subtask_index>";
    private static final double MILLIS = 0.001;

    private PipelineMetricMapping() {}

    /**
     * @param logicalScope the logical scope of the metric's group, components joined by dots
     * @param metricName the metric's name in its group
     * @param variables the group's variables, such as {@code <operator_name>}
     */
    static Optional<Series> map(String logicalScope, String metricName, Map<String, String> variables) {
        requireNonNull(logicalScope, "logicalScope is null");
        requireNonNull(metricName, "metricName is null");
        requireNonNull(variables, "variables is null");
        if (logicalScope.equals(OPERATOR_SCOPE + "." + PipelineMetricNames.REJECTION_REASON_GROUP)) {
            Map<String, String> labels = operatorLabels(variables);
            labels.put("reason", metricName);
            return Optional.of(new Series("fleet_pipeline_records_rejected", true, labels, 1));
        }
        if (logicalScope.equals(OPERATOR_SCOPE)) {
            return operator(metricName, operatorLabels(variables));
        }
        if (logicalScope.equals(TASK_SCOPE)) {
            return task(metricName, taskLabels(variables));
        }
        if (logicalScope.equals(JOB_MANAGER_JOB_SCOPE)) {
            return job(metricName);
        }
        return Optional.empty();
    }

    private static Optional<Series> operator(String metricName, Map<String, String> labels) {
        return switch (metricName) {
            case PipelineMetricNames.RECORDS_READ -> counter("fleet_pipeline_records_read", labels);
            case PipelineMetricNames.RECORDS_ACCEPTED -> counter("fleet_pipeline_records_accepted", labels);
            case PipelineMetricNames.RESENDS_DEDUPLICATED -> counter("fleet_pipeline_resends_dropped", labels);
            case PipelineMetricNames.JUMP_BASELINE_RESETS -> counter("fleet_pipeline_jump_baseline_resets", labels);
            case PipelineMetricNames.ROUTE_POLLS_SUCCEEDED ->
                counter("fleet_pipeline_route_polls", with(labels, "result", "succeeded"));
            case PipelineMetricNames.ROUTE_POLLS_FAILED ->
                counter("fleet_pipeline_route_polls", with(labels, "result", "failed"));
            case PipelineMetricNames.ROUTE_UPDATES -> counter("fleet_pipeline_route_updates", labels);
            case PipelineMetricNames.STALE_ENRICHMENTS -> counter("fleet_pipeline_stale_enrichments", labels);
            case PipelineMetricNames.REDIS_UPDATES_APPLIED ->
                counter("fleet_pipeline_redis_updates", with(labels, "result", "applied"));
            case PipelineMetricNames.REDIS_UPDATES_IGNORED ->
                counter("fleet_pipeline_redis_updates", with(labels, "result", "ignored"));
            case PipelineMetricNames.REDIS_WRITE_FAILURES -> counter("fleet_pipeline_redis_write_failures", labels);
            case PipelineMetricNames.REDIS_PENDING_VEHICLES ->
                gauge("fleet_pipeline_redis_pending_vehicles", labels, 1);
            case PipelineMetricNames.REDIS_WRITES -> counter("fleet_pipeline_redis_writes", labels);
            case PipelineMetricNames.REDIS_WRITE_MILLIS ->
                scaledCounter("fleet_pipeline_redis_write_seconds", labels, MILLIS);
            case PipelineMetricNames.REDIS_LAST_WRITE_MILLIS ->
                gauge("fleet_pipeline_redis_last_write_duration_seconds", labels, MILLIS);
            case PipelineMetricNames.REDIS_LAST_BATCH_SIZE -> gauge("fleet_pipeline_redis_last_batch_size", labels, 1);
            case PipelineMetricNames.ROUTE_UPDATES_FAILED -> counter("fleet_pipeline_route_updates_failed", labels);
            case PipelineMetricNames.VEHICLES_EXPIRED -> counter("fleet_pipeline_vehicles_expired", labels);
            case PipelineMetricNames.MINUTE_ROWS_FAILED -> counter("fleet_pipeline_minute_rows_failed", labels);
            case PipelineMetricNames.DEAD_LETTERS_TRUNCATED -> counter("fleet_pipeline_dead_letters_truncated", labels);
            case "numRecordsIn" -> counter("fleet_pipeline_operator_records_in", labels);
            case "numRecordsOut" -> counter("fleet_pipeline_operator_records_out", labels);
            // The Kafka source's own: records it has not read yet, and how old the records it emits are.
            case "pendingRecords" -> gauge("fleet_pipeline_source_pending_records", labels, 1);
            case "currentEmitEventTimeLag" ->
                gauge("fleet_pipeline_source_emit_event_time_lag_seconds", labels, MILLIS);
            default -> Optional.empty();
        };
    }

    private static Optional<Series> task(String metricName, Map<String, String> labels) {
        return switch (metricName) {
            case "backPressuredTimeMsPerSecond" -> gauge("fleet_pipeline_task_backpressured_ratio", labels, MILLIS);
            case "busyTimeMsPerSecond" -> gauge("fleet_pipeline_task_busy_ratio", labels, MILLIS);
            default -> Optional.empty();
        };
    }

    private static Optional<Series> job(String metricName) {
        Map<String, String> none = new LinkedHashMap<>();
        return switch (metricName) {
            case PipelineMetricNames.NUM_RESTARTS -> counter("fleet_pipeline_job_restarts", none);
            case "lastCheckpointDuration" -> gauge("fleet_pipeline_last_checkpoint_duration_seconds", none, MILLIS);
            case "lastCheckpointSize" -> gauge("fleet_pipeline_last_checkpoint_size_bytes", none, 1);
            case "numberOfCompletedCheckpoints" ->
                counter("fleet_pipeline_checkpoints", with(none, "result", "completed"));
            case "numberOfFailedCheckpoints" -> counter("fleet_pipeline_checkpoints", with(none, "result", "failed"));
            default -> Optional.empty();
        };
    }

    private static Map<String, String> operatorLabels(Map<String, String> variables) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("operator", variables.getOrDefault(OPERATOR, ""));
        labels.put("subtask", variables.getOrDefault(SUBTASK, ""));
        return labels;
    }

    private static Map<String, String> taskLabels(Map<String, String> variables) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("task", variables.getOrDefault(TASK, ""));
        labels.put("subtask", variables.getOrDefault(SUBTASK, ""));
        return labels;
    }

    private static Map<String, String> with(Map<String, String> labels, String name, String value) {
        Map<String, String> copy = new LinkedHashMap<>(labels);
        copy.put(name, value);
        return copy;
    }

    private static Optional<Series> counter(String name, Map<String, String> labels) {
        return Optional.of(new Series(name, true, labels, 1));
    }

    private static Optional<Series> scaledCounter(String name, Map<String, String> labels, double scale) {
        return Optional.of(new Series(name, true, labels, scale));
    }

    private static Optional<Series> gauge(String name, Map<String, String> labels, double scale) {
        return Optional.of(new Series(name, false, labels, scale));
    }
}
