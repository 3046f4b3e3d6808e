package io.fleetlake.operations.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.process.LogFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Logs are appended to at every start: a ready line of an earlier run must not make a restarted component ready. */
class LogContainsProbeTest {
    private static final String READY = "Connect worker ready on 127.0.0.1:8083";

    @TempDir
    Path directory;

    @Test
    void onlyTheCurrentRunCounts() throws IOException {
        Path log = directory.resolve("connect.log");
        BooleanSupplier probe = HealthProbes.logContains(log, "Connect worker ready on");
        assertThat(probe.getAsBoolean()).as("no file yet").isFalse();

        LogFiles.beginRun(log, "connect");
        append(log, "starting\n" + READY + "\n");
        assertThat(probe.getAsBoolean()).isTrue();

        LogFiles.beginRun(log, "connect");
        append(log, "starting again\n");
        assertThat(probe.getAsBoolean())
                .as("the ready line belongs to the previous run")
                .isFalse();

        append(log, READY.substring(0, 10));
        assertThat(probe.getAsBoolean()).as("half a line is not read").isFalse();
        append(log, READY.substring(10) + "\n");
        assertThat(probe.getAsBoolean()).isTrue();
    }

    @Test
    void aProbeCreatedAfterSeveralRunsReadsTheWholeFileOnce() throws IOException {
        Path log = directory.resolve("connect.log");
        LogFiles.beginRun(log, "connect");
        append(log, READY + "\n");
        LogFiles.beginRun(log, "connect");

        assertThat(HealthProbes.logContains(log, "Connect worker ready on").getAsBoolean())
                .isFalse();
    }

    @Test
    void aRotatedFileIsReadFromItsStart() throws IOException {
        Path log = directory.resolve("connect.log");
        BooleanSupplier probe = HealthProbes.logContains(log, "Connect worker ready on");
        LogFiles.beginRun(log, "connect", 1, 2, Instant.now());
        append(log, "a long first run that fills the file\n" + READY + "\n");
        assertThat(probe.getAsBoolean()).isTrue();

        LogFiles.beginRun(log, "connect", 1, 2, Instant.now());
        assertThat(LogFiles.rotated(log, 1)).exists();

        assertThat(probe.getAsBoolean()).isFalse();
        append(log, READY + "\n");
        assertThat(probe.getAsBoolean()).isTrue();
    }

    private static void append(Path log, String text) throws IOException {
        Files.writeString(log, text, StandardOpenOption.APPEND);
    }
}
