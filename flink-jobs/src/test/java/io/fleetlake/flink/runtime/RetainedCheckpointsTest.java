package io.fleetlake.flink.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.restore.RestorePoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetainedCheckpointsTest {
    @TempDir
    Path directory;

    @Test
    void noDirectoryOrNoCheckpointMeansNone() throws Exception {
        assertThat(RetainedCheckpoints.newest(directory.resolve("absent"))).isEmpty();
        Files.createDirectories(directory.resolve("job-a/chk-3"));
        Files.createDirectories(directory.resolve("job-a/shared"));

        assertThat(RetainedCheckpoints.newest(directory)).isEmpty();
    }

    @Test
    void newestCompletedCheckpointAcrossJobsWins() throws Exception {
        checkpoint("job-a", "chk-7", Instant.parse("2026-11-29T10:00:00Z"));
        Path newest = checkpoint("job-b", "chk-8", Instant.parse("2026-11-29T11:00:00Z"));
        checkpoint("job-c", "chk-2", Instant.parse("2026-11-29T09:00:00Z"));
        // An incomplete checkpoint has no metadata yet.
        Files.createDirectories(directory.resolve("job-b/chk-9"));

        assertThat(RetainedCheckpoints.newest(directory)).contains(newest);
    }

    @Test
    void higherNumberBreaksATie() throws Exception {
        Instant time = Instant.parse("2026-11-29T10:00:00Z");
        checkpoint("job-a", "chk-7", time);
        Path higher = checkpoint("job-a", "chk-12", time);

        assertThat(RetainedCheckpoints.newest(directory)).contains(higher);
    }

    @Test
    void theNewestCheckpointIsARestorePointOfItsJobWithItsIdAndCompletionTime() throws Exception {
        Instant completedAt = Instant.parse("2026-11-29T11:00:00Z");
        checkpoint("4f3a0000000000000000000000000001", "chk-7", completedAt.minusSeconds(60));
        Path newest = checkpoint("4f3a0000000000000000000000000002", "chk-12", completedAt);

        assertThat(RetainedCheckpoints.newestRestorePoint(directory))
                .hasValue(new RestorePoint(
                        "4f3a0000000000000000000000000002",
                        12,
                        completedAt,
                        newest.toUri().toString(),
                        PipelineMode.EMBEDDED,
                        RestorePoint.Kind.CHECKPOINT));
        assertThat(RetainedCheckpoints.newestRestorePoint(directory.resolve("absent")))
                .isEmpty();
    }

    private Path checkpoint(String job, String name, Instant completedAt) throws Exception {
        Path checkpoint = Files.createDirectories(directory.resolve(job).resolve(name));
        Path metadata = Files.createFile(checkpoint.resolve(RetainedCheckpoints.METADATA_FILE));
        Files.setLastModifiedTime(metadata, FileTime.from(completedAt));
        return checkpoint;
    }
}
