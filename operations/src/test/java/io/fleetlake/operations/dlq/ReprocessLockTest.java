package io.fleetlake.operations.dlq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.operations.dlq.ReprocessLock.LockHeldException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Two `fleet dlq reprocess` runs exclude each other, across real processes, and a crashed holder blocks nobody. */
@Timeout(120)
class ReprocessLockTest {
    @TempDir
    Path directory;

    private Process holder;

    @AfterEach
    void stopHolder() {
        if (holder != null) {
            holder.destroyForcibly();
        }
    }

    @Test
    void aSecondRunIsRefusedWithTheFirstOnesDescription() throws Exception {
        Path file = ReprocessLock.location(directory);
        long holderPid = startHolder(file);

        assertThatThrownBy(() -> ReprocessLock.acquire(file, "reprocessing reasons [SPEED_TOO_HIGH]"))
                .isInstanceOf(LockHeldException.class)
                .hasMessageStartingWith(
                        "Another `fleet dlq reprocess` is running on this data folder: pid " + holderPid)
                .hasMessageContaining("reprocessing reasons [OUTSIDE_REGION]")
                .hasMessageContaining("Lock: " + file);
    }

    @Test
    void theSecondRunMayStartOnceTheFirstHasFinished() throws Exception {
        Path file = ReprocessLock.location(directory);
        startHolder(file);
        holder.getOutputStream().close();
        assertThat(holder.waitFor(60, TimeUnit.SECONDS)).isTrue();

        try (ReprocessLock lock = ReprocessLock.acquire(file, "second run")) {
            assertThat(lock.unfinishedPredecessor())
                    .as("the first run released cleanly")
                    .isEmpty();
        }
    }

    @Test
    void aKilledHolderDoesNotBlockTheNextRunWhichSaysSo() throws Exception {
        Path file = ReprocessLock.location(directory);
        long holderPid = startHolder(file);
        holder.destroyForcibly(); // SIGKILL: no shutdown hook, no release
        assertThat(holder.waitFor(60, TimeUnit.SECONDS)).isTrue();

        try (ReprocessLock lock = ReprocessLock.acquire(file, "after the crash")) {
            assertThat(lock.unfinishedPredecessor()).hasValueSatisfying(previous -> assertThat(previous)
                    .startsWith("pid " + holderPid)
                    .contains("reprocessing reasons [OUTSIDE_REGION]"));
        }
    }

    @Test
    void aSecondLockInTheSameProcessIsRefusedToo() {
        Path file = ReprocessLock.location(directory);
        try (ReprocessLock first = ReprocessLock.acquire(file, "first")) {
            assertThatThrownBy(() -> ReprocessLock.acquire(file, "second"))
                    .isInstanceOf(LockHeldException.class)
                    .hasMessageContaining("pid " + ProcessHandle.current().pid())
                    .hasMessageContaining("first");
        }
    }

    /** Starts {@link ReprocessLockHolder} in its own JVM and waits until it holds the lock; returns its pid. */
    private long startHolder(Path file) throws IOException {
        holder = new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        ReprocessLockHolder.class.getName(),
                        file.toString()))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        BufferedReader output =
                new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        String line = output.readLine();
        assertThat(line).as("the holder's first line").startsWith("LOCKED ");
        return Long.parseLong(line.substring("LOCKED ".length()));
    }
}
