package io.fleetlake.common.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogFilesTest {
    private static final Instant FIRST = Instant.parse("2026-11-29T08:00:00Z");
    private static final Instant SECOND = Instant.parse("2026-11-29T09:00:00Z");

    @TempDir
    Path directory;

    @Test
    void everyRunAppendsAfterItsMarkerAndKeepsTheEarlierRuns() throws IOException {
        Path log = directory.resolve("logs/connect.log");

        LogFiles.beginRun(log, "connect", 1024, 3, FIRST);
        Files.writeString(log, "crashed with OutOfMemoryError\n", java.nio.file.StandardOpenOption.APPEND);
        LogFiles.beginRun(log, "connect", 1024, 3, SECOND);

        assertThat(Files.readAllLines(log))
                .containsExactly(
                        "==== fleet launcher: starting connect at 2026-11-29T08:00:00Z ====",
                        "crashed with OutOfMemoryError",
                        "==== fleet launcher: starting connect at 2026-11-29T09:00:00Z ====");
        assertThat(LogFiles.isStartMarker(Files.readAllLines(log).get(2))).isTrue();
        assertThat(LogFiles.isStartMarker("crashed with OutOfMemoryError")).isFalse();
    }

    @Test
    void aFileBeyondTheLimitIsRotatedAndTheOldestDropped() throws IOException {
        Path log = directory.resolve("pipeline.log");
        for (int run = 1; run <= 4; run++) {
            LogFiles.beginRun(log, "pipeline", 10, 2, FIRST);
            Files.writeString(log, "run " + run + " output\n", java.nio.file.StandardOpenOption.APPEND);
        }

        assertThat(log).content().contains("run 4 output").doesNotContain("run 3");
        assertThat(LogFiles.rotated(log, 1)).content().contains("run 3 output");
        assertThat(LogFiles.rotated(log, 2)).content().contains("run 2 output");
        assertThat(LogFiles.rotated(log, 3)).doesNotExist();
    }

    @Test
    void aSmallFileIsNotRotated() throws IOException {
        Path log = directory.resolve("redis.log");
        Files.writeString(log, "earlier run\n");

        LogFiles.beginRun(log, "redis", 1024, 3, FIRST);

        assertThat(log).content().startsWith("earlier run\n");
        assertThat(LogFiles.rotated(log, 1)).doesNotExist();
    }

    @Test
    void keepingNoRotatedFileIsRefused() {
        assertThatThrownBy(() -> LogFiles.beginRun(directory.resolve("x.log"), "x", 10, 0, FIRST))
                .hasMessage("keptFiles must be at least 1, got 0");
    }
}
