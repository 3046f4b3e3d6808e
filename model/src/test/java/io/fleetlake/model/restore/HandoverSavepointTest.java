package io.fleetlake.model.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.restore.RestorePoint.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HandoverSavepointTest {
    @TempDir
    Path directory;

    @Test
    void noRecordMeansNoHandover() {
        assertThat(new HandoverSavepoint(directory.resolve("absent")).read()).isEmpty();
        assertThat(new HandoverSavepoint(directory).read()).isEmpty();
    }

    /** What one mode records the other reads back, and the savepoints it replaces are deleted. */
    @Test
    void theRecordedSavepointIsReadBackAndTheOnesItReplacesAreDeleted() throws Exception {
        HandoverSavepoint handover = new HandoverSavepoint(directory);
        Path older = Files.createDirectories(directory.resolve("savepoint-aaaaaa-000000000001"));
        Files.writeString(older.resolve("_metadata"), "older");
        Path newer = Files.createDirectories(directory.resolve("savepoint-bbbbbb-000000000002"));
        Files.writeString(newer.resolve("_metadata"), "newer");
        Path unrelated = Files.createDirectories(directory.resolve("notes"));
        RestorePoint savepoint = new RestorePoint(
                "bbbbbb00000000000000000000000002",
                57,
                Instant.parse("2026-12-02T10:15:32.123Z"),
                // Flink names a local savepoint this way: file:/ and the absolute path.
                "file:" + newer,
                PipelineMode.CLUSTER,
                Kind.SAVEPOINT);

        assertThat(handover.record(savepoint)).containsExactly(older);

        assertThat(new HandoverSavepoint(directory).read()).hasValue(savepoint);
        assertThat(older).doesNotExist();
        assertThat(newer.resolve("_metadata")).hasContent("newer");
        assertThat(unrelated).isDirectory();
        assertThat(handover.targetDirectory()).isEqualTo(directory.toUri().toString());
    }

    @Test
    void onlyASavepointIsAHandover() {
        RestorePoint checkpoint =
                new RestorePoint("j", 3, Instant.EPOCH, "/c/j/chk-3", PipelineMode.EMBEDDED, Kind.CHECKPOINT);

        assertThatThrownBy(() -> new HandoverSavepoint(directory).record(checkpoint))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aDamagedRecordSaysHowToGoOn() throws Exception {
        Files.writeString(
                directory.resolve(HandoverSavepoint.RECORD_FILE),
                "job-id=j\ncheckpoint-id=x\ncompleted-at=2026-12-02T10:15:32Z\nlocation=file:/h\nmode=embedded\n");

        assertThatThrownBy(() -> new HandoverSavepoint(directory).read())
                .hasMessageContaining("savepoint.properties is damaged")
                .hasMessageContaining("move it away");
    }
}
