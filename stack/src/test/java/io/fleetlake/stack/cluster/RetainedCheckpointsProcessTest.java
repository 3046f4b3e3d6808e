package io.fleetlake.stack.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.restore.RestorePoint;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetainedCheckpointsProcessTest {
    private static final String JOB = "5f0c0c1b8e2a4c7e9d3b1a2c3d4e5f60";

    @Test
    void thePrintedCheckpointIsARestorePointOfTheClusterMode() {
        String output = "INFO some log line of Flink's file system\n"
                + "newest-retained-checkpoint: s3://flink/checkpoints/" + JOB + "/chk-42\n"
                + "newest-retained-checkpoint-completed-at: 2026-12-02T10:15:32.123Z\n";

        assertThat(RetainedCheckpointsProcess.parse(JOB, output))
                .hasValue(new RestorePoint(
                        JOB,
                        42,
                        Instant.parse("2026-12-02T10:15:32.123Z"),
                        "s3://flink/checkpoints/" + JOB + "/chk-42",
                        PipelineMode.CLUSTER,
                        RestorePoint.Kind.CHECKPOINT));
    }

    @Test
    void nothingPrintedIsNoCheckpointAndAHalfAnswerIsAnError() {
        assertThat(RetainedCheckpointsProcess.parse(JOB, "INFO nothing here\n")).isEmpty();
        assertThatThrownBy(() -> RetainedCheckpointsProcess.parse(
                        JOB, "newest-retained-checkpoint: s3://flink/checkpoints/" + JOB + "/chk-42\n"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("without a chk-<n> folder or a completion time");
    }
}
