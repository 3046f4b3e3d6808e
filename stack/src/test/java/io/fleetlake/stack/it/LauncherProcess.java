package io.fleetlake.stack.it;

import static java.util.Objects.requireNonNull;
import static org.awaitility.Awaitility.await;

import io.fleetlake.common.process.ChildProcess;
import io.fleetlake.operations.status.ComponentStatus;
import io.fleetlake.operations.status.StackStatusFile;
import io.fleetlake.operations.status.StackStatusFile.StackStatus;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.cli.FleetCli;
import io.fleetlake.stack.process.FleetHome;
import io.fleetlake.stack.process.JavaCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@code fleet up} as a user runs it: the launcher in a JVM of its own (the stack module's jar and launch classpath),
 * on a test stack's data folder, ports and credentials, so that a test can kill the launcher itself. What the test
 * knows of the stack it reads where {@code fleet status} does: the launcher's status file.
 */
final class LauncherProcess implements AutoCloseable {
    private static final Duration STOP_GRACE_PERIOD = Duration.ofMinutes(3);

    private final StackSettings settings;
    private final ChildProcess process;

    private LauncherProcess(StackSettings settings, ChildProcess process) {
        this.settings = settings;
        this.process = process;
    }

    /** Starts {@code fleet up} for {@code settings}; returns at once (see {@link #awaitRunning}). */
    static LauncherProcess start(StackSettings settings, FleetHome home, String logName) {
        requireNonNull(settings, "settings is null");
        List<String> arguments = new ArrayList<>(List.of("up"));
        arguments.addAll(FleetCommand.stackOptions(settings));
        List<String> command = new JavaCommand(
                        JavaCommand.currentJavaHome(),
                        List.of("-Xmx512m"),
                        home.launchClasspath("stack", "stack"),
                        FleetCli.class.getName(),
                        arguments)
                .toCommandLine();
        Path log =
                settings.dataDirectory().resolveSibling(settings.dataDirectory().getFileName() + "-" + logName);
        return new LauncherProcess(
                settings,
                ChildProcess.start(
                        "launcher",
                        command,
                        settings.dataDirectory(),
                        // As the fleet script sets it: the checkout whose modules the launcher runs.
                        Map.of("FLEET_HOME", home.root().toString()),
                        log,
                        Optional.empty()));
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return process.logFile();
    }

    /**
     * Waits until this launcher reports every one of {@code components} running.
     *
     * @throws IllegalStateException when the launcher exits first, with the end of its output
     */
    void awaitRunning(Set<String> components, Duration timeout) {
        await().atMost(timeout).pollInterval(Duration.ofSeconds(1)).until(() -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("fleet up exited with code " + process.exitCode() + "; its output ends:"
                        + System.lineSeparator() + process.logTail());
            }
            return status().filter(status -> status.launcherPid() == process.pid())
                    .map(status -> components.stream().allMatch(name -> status.components().stream()
                            .anyMatch(component -> component.name().equals(name)
                                    && component.state() == ComponentStatus.State.RUNNING)))
                    .orElse(false);
        });
    }

    /** What this launcher last wrote to its status file; empty before it wrote any. */
    Optional<StackStatus> status() {
        return StackStatusFile.read(StackStatusFile.location(settings.dataDirectory()))
                .filter(status -> status.launcherPid() == process.pid());
    }

    Optional<ComponentStatus> status(String component) {
        return status().flatMap(status -> status.components().stream()
                .filter(candidate -> candidate.name().equals(component))
                .findFirst());
    }

    /** The running process of a component, as the launcher reports it. */
    OptionalLong pid(String component) {
        return status(component).map(ComponentStatus::pid).orElse(OptionalLong.empty());
    }

    int restarts(String component) {
        return status(component).map(ComponentStatus::restarts).orElse(0);
    }

    /** The launcher's processes below it: every component it started. */
    List<ProcessHandle> descendants() {
        return process.handle().descendants().toList();
    }

    /** SIGSTOP or SIGCONT to one process and its descendants, as {@code kill -STOP} would. */
    static void signal(String signal, ProcessHandle target) {
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal, Long.toString(target.pid())));
        target.descendants().forEach(descendant -> command.add(Long.toString(descendant.pid())));
        try {
            Process kill = new ProcessBuilder(command).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** SIGKILL to the launcher alone, as the OOM killer or a crash would; its children are left to themselves. */
    void kill() {
        process.handle().destroyForcibly();
        await().atMost(Duration.ofSeconds(30)).until(() -> !process.isAlive());
    }

    /** Stops the launcher as Ctrl-C would (SIGTERM), which stops the stack; kills what is left after a while. */
    @Override
    public void close() {
        List<ProcessHandle> descendants = descendants();
        process.stop(STOP_GRACE_PERIOD);
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }
}
