package io.fleetlake.stack.supervision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fleetlake.operations.health.HealthProbes;
import io.fleetlake.operations.status.ComponentStatus;
import io.fleetlake.operations.status.ComponentStatus.State;
import io.fleetlake.operations.status.StackStatusFile;
import io.fleetlake.operations.status.StackStatusFile.StackStatus;
import io.fleetlake.stack.EmbeddedStack;
import io.fleetlake.stack.component.ProcessComponent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stack's supervision with real processes (shell scripts): a killed process comes back, counted, with its exit
 * code and log; a process that keeps dying is given up on; an intentional stop is never undone; logs are appended.
 */
@Timeout(120)
class SupervisorTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final SupervisionPolicy FAST =
            new SupervisionPolicy(Duration.ofMillis(100), Duration.ofMillis(400), 3, Duration.ofMinutes(5));

    @TempDir
    Path directory;

    private final List<List<ComponentStatus>> published = new CopyOnWriteArrayList<>();
    private EmbeddedStack stack;

    @AfterEach
    void stopStack() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void aKilledProcessIsRestartedCountedAndItsLogKept() throws IOException {
        Path log = directory.resolve("logs/server.log");
        StackStatusFile statusFile = new StackStatusFile(
                directory.resolve("stack-status.json"), ProcessHandle.current().pid(), Instant.now());
        stack = new EmbeddedStack(
                List.of(server("server", log, "echo ready $$; exec sleep 600")),
                Set.of(),
                Optional.empty(),
                TIMEOUT,
                FAST,
                statuses -> {
                    published.add(statuses);
                    statusFile.write(statuses);
                });
        stack.start();
        long firstPid = pid("server");

        kill9(firstPid);

        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(status("server"))
                .returns(State.RUNNING, ComponentStatus::state)
                .returns(1, ComponentStatus::restarts));
        ComponentStatus status = status("server");
        assertThat(status.pid()).isPresent();
        assertThat(status.pid().getAsLong()).as("a new process").isNotEqualTo(firstPid);
        assertThat(status.lastExitCode()).hasValue(137);
        assertThat(status.lastFailure()).hasValueSatisfying(failure -> assertThat(failure)
                .contains("exit code 137 (killed by signal 9")
                .contains("read " + log));
        assertThat(published)
                .as("the restart was announced before it happened")
                .anySatisfy(statuses ->
                        assertThat(statuses).singleElement().returns(State.RESTARTING, ComponentStatus::state));
        StackStatus written =
                StackStatusFile.read(StackStatusFile.location(directory)).orElseThrow();
        assertThat(written.launcherRunning()).isTrue();
        assertThat(written.totalRestarts()).isEqualTo(1);
        assertThat(written.components())
                .singleElement()
                .returns(1, ComponentStatus::restarts)
                .returns(status.lastExitCode(), ComponentStatus::lastExitCode);

        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        assertThat(lines.stream().filter(line -> line.startsWith("==== fleet launcher: starting server")))
                .as("one start marker per run, the killed run's output still there")
                .hasSize(2);
        assertThat(lines).contains("ready " + firstPid, "ready " + status.pid().getAsLong());
    }

    @Test
    void aComponentThatKeepsDyingIsGivenUpOnAfterTheAllowedAttempts() {
        Path log = directory.resolve("crasher.log");
        // The first run serves; every later run fails at once, as a corrupt data folder would make it.
        String script = "if [ -f crashed-once ]; then echo 'cannot start: corrupt data'; exit 7; fi;"
                + " touch crashed-once; echo ready; exec sleep 600";
        stack = new EmbeddedStack(
                List.of(server("crasher", log, script)), Set.of(), Optional.empty(), TIMEOUT, FAST, published::add);
        stack.start();

        kill9(pid("crasher"));

        await().atMost(TIMEOUT)
                .untilAsserted(() -> assertThat(status("crasher").state()).isEqualTo(State.GAVE_UP));
        ComponentStatus status = status("crasher");
        assertThat(status.restarts()).as("restarts before giving up").isEqualTo(3);
        assertThat(status.failuresInARow()).isEqualTo(4);
        assertThat(status.lastExitCode()).hasValue(7);
        assertThat(status.lastFailure()).hasValueSatisfying(failure -> assertThat(failure)
                .contains("exited while restarting with exit code 7"));
        assertThat(status.pid()).isEmpty();
        await().during(Duration.ofSeconds(1))
                .atMost(TIMEOUT)
                .until(() -> status("crasher").restarts() == 3);
    }

    @Test
    void failuresAreForgottenOnceTheComponentHasStayedUp() {
        SupervisionPolicy forgetful =
                new SupervisionPolicy(Duration.ofMillis(100), Duration.ofMillis(400), 1, Duration.ofMillis(500));
        stack = new EmbeddedStack(
                List.of(server("server", directory.resolve("server.log"), "echo ready; exec sleep 600")),
                Set.of(),
                Optional.empty(),
                TIMEOUT,
                forgetful,
                published::add);
        stack.start();

        kill9(pid("server"));
        await().atMost(TIMEOUT)
                .until(() -> status("server").restarts() == 1
                        && status("server").state() == State.RUNNING
                        && status("server").failuresInARow() == 0);
        kill9(pid("server"));

        // With one attempt allowed in a row, a second crash is only restarted because the first was forgotten.
        await().atMost(TIMEOUT)
                .until(() ->
                        status("server").restarts() == 2 && status("server").state() == State.RUNNING);
    }

    @Test
    void anIntentionalStopIsNotUndoneNotEvenDuringTheBackoff() {
        SupervisionPolicy slow =
                new SupervisionPolicy(Duration.ofSeconds(2), Duration.ofSeconds(2), 3, Duration.ofMinutes(5));
        ProcessComponent stopped = server("stopped", directory.resolve("stopped.log"), "echo ready; exec sleep 600");
        ProcessComponent crashed = server("crashed", directory.resolve("crashed.log"), "echo ready; exec sleep 600");
        stack = new EmbeddedStack(List.of(stopped, crashed), Set.of(), Optional.empty(), TIMEOUT, slow, published::add);
        stack.start();

        stack.stop("stopped");
        kill9(pid("crashed"));
        await().atMost(TIMEOUT).until(() -> status("crashed").state() == State.RESTARTING);
        stack.stop("crashed");

        await().during(Duration.ofSeconds(3))
                .atMost(TIMEOUT)
                .until(() -> stopped.pid().isEmpty()
                        && crashed.pid().isEmpty()
                        && stack.statuses().isEmpty());
        assertThat(stopped.exit()).as("stopped on purpose: no unexpected exit").isEmpty();
    }

    @Test
    void aPausedProcessIsFrozenNotRestartedAndRunsAgainWhenResumed() throws IOException {
        stack = new EmbeddedStack(
                List.of(server("server", directory.resolve("server.log"), "echo ready; exec sleep 600")),
                Set.of(),
                Optional.empty(),
                TIMEOUT,
                FAST,
                published::add);
        stack.start();
        long pid = pid("server");

        stack.pause("server");
        await().atMost(TIMEOUT).until(() -> processState(pid).equals("T"));
        await().during(Duration.ofSeconds(1))
                .atMost(TIMEOUT)
                .until(() -> status("server").restarts() == 0);
        stack.resume("server");

        await().atMost(TIMEOUT).until(() -> !processState(pid).equals("T"));
        assertThat(status("server"))
                .returns(State.RUNNING, ComponentStatus::state)
                .returns(0, ComponentStatus::restarts);
    }

    @Test
    void closingTheStackStopsEverythingForGood() {
        ProcessComponent server = server("server", directory.resolve("server.log"), "echo ready; exec sleep 600");
        stack = new EmbeddedStack(List.of(server), Set.of(), Optional.empty(), TIMEOUT, FAST, published::add);
        stack.start();
        long pid = pid("server");

        stack.close();

        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive))
                .as("process %s", pid)
                .isEmpty();
        await().during(Duration.ofSeconds(1)).atMost(TIMEOUT).until(() -> server.pid()
                .isEmpty());
    }

    private ProcessComponent server(String name, Path log, String script) {
        return ProcessComponent.builder(name)
                .command(() -> List.of("/bin/sh", "-c", script))
                .workingDirectory(directory.resolve(name))
                .logFile(log)
                .healthProbe(HealthProbes.logContains(log, "ready"))
                .build();
    }

    private long pid(String name) {
        return stack.component(name).pid().orElseThrow();
    }

    private ComponentStatus status(String name) {
        return stack.statuses().stream()
                .filter(status -> status.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private static void kill9(long pid) {
        ProcessHandle process = ProcessHandle.of(pid).orElseThrow();
        assertThat(process.destroyForcibly()).as("SIGKILL sent to %s", pid).isTrue();
    }

    /** The state letter in /proc/PID/stat: R running, S sleeping, T stopped by a signal. */
    private static String processState(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    }
}
