package io.fleetlake.stack.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.operations.dlq.ReprocessLock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ReprocessCommandTest {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    @Test
    void sinceIsAnInstantOrADurationBackFromNow() {
        assertThat(ReprocessCommand.parseSince(null, NOW)).isEmpty();
        assertThat(ReprocessCommand.parseSince("2026-11-29T08:00:00Z", NOW))
                .contains(Instant.parse("2026-11-29T08:00:00Z"));
        assertThat(ReprocessCommand.parseSince("2h", NOW)).contains(Instant.parse("2026-11-29T10:00:00Z"));
        assertThat(ReprocessCommand.parseSince("3d", NOW)).contains(Instant.parse("2026-11-26T12:00:00Z"));
    }

    @Test
    void unparsableSinceSaysWhatIsAccepted() {
        assertThatThrownBy(() -> ReprocessCommand.parseSince("yesterday", NOW))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("--since 'yesterday'")
                .hasMessageContaining("ISO-8601 instant");
    }

    /**
     * The command refuses while another run holds the data folder's lock, before it asks Kafka anything. The holder is
     * this JVM (the lock refuses a second holder in the same process too); ReprocessLockTest covers other processes.
     */
    @Test
    void theCommandExitsWithOneAndNamesTheRunningReprocessing(@TempDir Path directory) {
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        PrintStream originalErr = System.err;
        int exitCode;
        try (ReprocessLock held =
                ReprocessLock.acquire(ReprocessLock.location(directory), "reprocessing reasons [OUTSIDE_REGION]")) {
            System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
            exitCode = new CommandLine(new FleetCli())
                    .execute(
                            "dlq",
                            "reprocess",
                            "--reason",
                            "OUTSIDE_REGION",
                            "--data-dir",
                            directory.toString(),
                            // Nothing listens there: the lock must refuse before Kafka is asked anything.
                            "--bootstrap-servers",
                            "127.0.0.1:1");
        } finally {
            System.setErr(originalErr);
        }

        assertThat(exitCode).isEqualTo(1);
        assertThat(errors.toString(StandardCharsets.UTF_8))
                .contains("fleet dlq reprocess: Another `fleet dlq reprocess` is running on this data folder: pid "
                        + ProcessHandle.current().pid())
                .contains("reprocessing reasons [OUTSIDE_REGION]");
    }
}
