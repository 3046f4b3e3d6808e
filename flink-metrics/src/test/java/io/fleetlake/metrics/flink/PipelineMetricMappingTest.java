package io.fleetlake.metrics.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PipelineMetricMappingTest {
    private static final Map<String, String> OPERATOR_VARIABLES = Map.of(
            "<job_name>", "fleet-pipeline",
            "<task_name>", "decode-positions -> validate",
            "<operator_name>", "decode-positions",
            "<subtask_index>", "1");

    @Test
    void thePipelinesCountersBecomeFleetCounters() {
        assertThat(PipelineMetricMapping.map("taskmanager.job.task.operator", "recordsRead", OPERATOR_VARIABLES))
                .contains(new Series(
                        "fleet_pipeline_records_read",
                        true,
                        Map.of("operator", "decode-positions", "subtask", "1"),
                        1));
        assertThat(PipelineMetricMapping.map(
                        "taskmanager.job.task.operator", "resendsDeduplicated", OPERATOR_VARIABLES))
                .map(Series::name)
                .contains("fleet_pipeline_resends_dropped");
        assertThat(PipelineMetricMapping.map(
                        "taskmanager.job.task.operator", "redisUpdatesIgnored", OPERATOR_VARIABLES))
                .map(Series::labels)
                .contains(Map.of("operator", "decode-positions", "subtask", "1", "result", "ignored"));
    }

    @Test
    void redisWriteLatencyIsACounterOfSecondsBesideTheCountOfWrites() {
        assertThat(PipelineMetricMapping.map("taskmanager.job.task.operator", "redisWriteMillis", OPERATOR_VARIABLES))
                .contains(new Series(
                        "fleet_pipeline_redis_write_seconds",
                        true,
                        Map.of("operator", "decode-positions", "subtask", "1"),
                        0.001));
        assertThat(PipelineMetricMapping.map("taskmanager.job.task.operator", "redisWrites", OPERATOR_VARIABLES))
                .map(Series::name)
                .contains("fleet_pipeline_redis_writes");
        assertThat(PipelineMetricMapping.map("taskmanager.job.task.operator", "redisLastBatchSize", OPERATOR_VARIABLES))
                .map(Series::name)
                .contains("fleet_pipeline_redis_last_batch_size");
    }

    @Test
    void eachRejectionReasonIsALabelOfOneCounter() {
        assertThat(PipelineMetricMapping.map(
                        "taskmanager.job.task.operator.rejectionReason", "OUTSIDE_REGION", OPERATOR_VARIABLES))
                .contains(new Series(
                        "fleet_pipeline_records_rejected",
                        true,
                        Map.of("operator", "decode-positions", "subtask", "1", "reason", "OUTSIDE_REGION"),
                        1));
    }

    @Test
    void millisecondsBecomeSeconds() {
        assertThat(PipelineMetricMapping.map("jobmanager.job", "lastCheckpointDuration", Map.of()))
                .contains(new Series("fleet_pipeline_last_checkpoint_duration_seconds", false, Map.of(), 0.001));
        assertThat(PipelineMetricMapping.map(
                        "taskmanager.job.task", "backPressuredTimeMsPerSecond", OPERATOR_VARIABLES))
                .contains(new Series(
                        "fleet_pipeline_task_backpressured_ratio",
                        false,
                        Map.of("task", "decode-positions -> validate", "subtask", "1"),
                        0.001));
    }

    @Test
    void jobRestartsAndCheckpoints() {
        assertThat(PipelineMetricMapping.map("jobmanager.job", "numRestarts", Map.of()))
                .contains(new Series("fleet_pipeline_job_restarts", true, Map.of(), 1));
        assertThat(PipelineMetricMapping.map("jobmanager.job", "numberOfFailedCheckpoints", Map.of()))
                .contains(new Series("fleet_pipeline_checkpoints", true, Map.of("result", "failed"), 1));
    }

    @Test
    void otherMetricsAreLeftOut() {
        assertThat(PipelineMetricMapping.map("taskmanager.job.task.operator", "numBytesIn", OPERATOR_VARIABLES))
                .isEqualTo(Optional.empty());
        assertThat(PipelineMetricMapping.map("taskmanager", "Status.JVM.CPU.Load", Map.of()))
                .isEmpty();
        assertThat(PipelineMetricMapping.map("taskmanager.job.task", "recordsRead", OPERATOR_VARIABLES))
                .isEmpty();
    }
}
