package io.fleetlake.common.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class ChildProcessTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    Path directory;

    private final List<ProcessHandle> toKill = new ArrayList<>();

    @AfterEach
    void killWhatIsLeft() {
        toKill.forEach(ProcessHandle::destroyForcibly);
    }

    @Test
    void childEndsWhenItsLauncherIsKilled() throws Exception {
        Path pidFile = directory.resolve("sleeper.pid");
        Process launcher = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        LauncherFixture.class.getName(),
                        directory.toString())
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("launcher.log").toFile())
                .start();
        toKill.add(launcher.toHandle());
        await().atMost(TIMEOUT).until(() -> log().contains(LauncherFixture.STARTED));
        ProcessHandle child = recordedProcess(pidFile);
        toKill.add(child);
        assertThat(child.parent().map(ProcessHandle::pid)).contains(launcher.pid());
        assertThat(child.isAlive())
                .as("the child outlives the thread that asked for it (the fixture started it from one that ended)")
                .isTrue();

        launcher.toHandle().destroyForcibly();

        await().atMost(TIMEOUT).until(() -> !child.isAlive());
    }

    @Test
    void startStopsTheLeftoverOfAnEarlierRun() throws Exception {
        Path pidFile = directory.resolve("sleeper.pid");
        // An orphan as a launcher that died would leave it: running, recorded in the pid file, nobody's child here.
        Process orphan = new ProcessBuilder("sleep", "600").start();
        toKill.add(orphan.toHandle());
        PidRecord.of(orphan.toHandle()).orElseThrow().write(pidFile);
        // Hung, too: a stopped process acts on SIGTERM only once it runs again.
        assertThat(new ProcessBuilder("kill", "-STOP", Long.toString(orphan.pid()))
                        .start()
                        .waitFor())
                .isZero();
        long startedAt = System.nanoTime();

        ChildProcess next = start(pidFile);
        toKill.add(next.handle());

        assertThat(orphan.isAlive()).as("the leftover was stopped").isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - startedAt))
                .as("stopped by its SIGTERM, not by the SIGKILL after the grace period")
                .isLessThan(Duration.ofSeconds(15));
        assertThat(next.isAlive()).isTrue();
        assertThat(recordedProcess(pidFile).pid()).isEqualTo(next.pid());
        next.stop(Duration.ofSeconds(5));
        assertThat(pidFile).doesNotExist();
    }

    @Test
    void aPidFileNamingAnotherProcessStopsNothing() throws Exception {
        Path pidFile = directory.resolve("sleeper.pid");
        Process unrelated = new ProcessBuilder("sleep", "600").start();
        toKill.add(unrelated.toHandle());
        // Its pid, but not its start time: the pid was given to another process since the file was written.
        new PidRecord(unrelated.pid(), Instant.parse("2020-01-01T00:00:00Z")).write(pidFile);

        ChildProcess.stopLeftover("sleeper", pidFile);

        assertThat(unrelated.isAlive()).isTrue();
        assertThat(pidFile).doesNotExist();
    }

    @Test
    void anUnreadablePidFileIsIgnored() throws Exception {
        Path pidFile = directory.resolve("sleeper.pid");
        Files.writeString(pidFile, "not a pid\n");

        ChildProcess next = start(pidFile);
        toKill.add(next.handle());

        assertThat(recordedProcess(pidFile).pid()).isEqualTo(next.pid());
        next.stop(Duration.ofSeconds(5));
    }

    @Test
    void stopEndsAPausedProcessAndItsDescendants() throws Exception {
        ChildProcess shell = ChildProcess.start(
                "shell",
                List.of("/bin/sh", "-c", "sleep 600 & wait"),
                directory,
                Map.of(),
                directory.resolve("shell.log"),
                Optional.empty());
        toKill.add(shell.handle());
        await().atMost(TIMEOUT)
                .until(() -> shell.handle().descendants().findAny().isPresent());
        ProcessHandle sleeper = shell.handle().descendants().findFirst().orElseThrow();
        toKill.add(sleeper);
        shell.pause();

        shell.stop(Duration.ofSeconds(5));

        assertThat(shell.isAlive()).isFalse();
        await().atMost(TIMEOUT).until(() -> !sleeper.isAlive());
    }

    private ChildProcess start(Path pidFile) {
        return ChildProcess.start(
                "sleeper",
                List.of("sleep", "600"),
                directory,
                Map.of(),
                directory.resolve("sleeper.log"),
                Optional.of(pidFile));
    }

    private static ProcessHandle recordedProcess(Path pidFile) {
        PidRecord record = PidRecord.read(pidFile).orElseThrow();
        return ProcessHandle.of(record.pid()).orElseThrow();
    }

    private String log() throws IOException {
        Path log = directory.resolve("launcher.log");
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    }
}
