package io.fleetlake.servers.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetainedCheckpointsTest {
    private static final String JOB = "5f0c0c1b8e2a4c7e9d3b1a2c3d4e5f60";

    @TempDir
    Path directory;

    @Test
    void theHighestCompleteCheckpointOfTheJobIsTheNewest() throws IOException {
        complete(JOB, 9);
        complete(JOB, 12);
        // chk-13 is still being written: no _metadata yet.
        Files.createDirectories(directory.resolve(JOB).resolve("chk-13"));
        // Another job's checkpoints, even higher numbers, are not this job's.
        complete("00000000000000000000000000000001", 40);
        Files.createDirectories(directory.resolve(JOB).resolve("shared"));

        Instant completedAt = Instant.parse("2026-12-02T10:15:32Z");
        Files.setLastModifiedTime(
                directory.resolve(JOB).resolve("chk-12").resolve(RetainedCheckpoints.METADATA_FILE),
                FileTime.from(completedAt));

        assertThat(checkpoints().newest(JOB)).hasValueSatisfying(retained -> {
            assertThat(retained.path().getName()).isEqualTo("chk-12");
            assertThat(retained.number()).isEqualTo(12);
            assertThat(retained.completedAt()).isEqualTo(completedAt);
        });
    }

    @Test
    void aJobThatLeftNoCheckpointHasNone() throws IOException {
        Files.createDirectories(directory.resolve(JOB).resolve("chk-1"));

        assertThat(checkpoints().newest(JOB)).isEmpty();
        assertThat(checkpoints().newest("ffffffffffffffffffffffffffffffff")).isEmpty();
    }

    @Test
    void onlyCheckpointDirectoriesAreNumbered() {
        assertThat(RetainedCheckpoints.checkpointNumber("chk-7")).hasValue(7);
        assertThat(RetainedCheckpoints.checkpointNumber("chk-")).isEmpty();
        assertThat(RetainedCheckpoints.checkpointNumber("taskowned")).isEmpty();
    }

    private RetainedCheckpoints checkpoints() {
        return new RetainedCheckpoints(new org.apache.flink.core.fs.Path(directory.toUri()));
    }

    private void complete(String job, int number) throws IOException {
        Path checkpoint = Files.createDirectories(directory.resolve(job).resolve("chk-" + number));
        Files.writeString(checkpoint.resolve(RetainedCheckpoints.METADATA_FILE), "metadata");
    }
}
