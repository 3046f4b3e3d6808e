package io.fleetlake.stack.component;

import static java.util.Objects.requireNonNull;

import io.fleetlake.stack.process.ManagedProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** A component that is a child process: a JVM of one of the project's modules, or a native server. */
public final class ProcessComponent implements Component {
    private static final Duration STOP_GRACE_PERIOD = Duration.ofSeconds(30);

    private final String name;
    private final Set<String> dependencies;
    private final Supplier<List<String>> command;
    private final Path workingDirectory;
    private final Map<String, String> environment;
    private final Path logFile;
    private final BooleanSupplier healthProbe;
    private final String endpoint;
    private volatile ManagedProcess process;

    /**
     * @param command computed at start, so that a missing build is reported when the component starts, not before
     */
    public ProcessComponent(
            String name,
            Set<String> dependencies,
            Supplier<List<String>> command,
            Path workingDirectory,
            Map<String, String> environment,
            Path logFile,
            BooleanSupplier healthProbe,
            String endpoint) {
        this.name = requireNonNull(name, "name is null");
        this.dependencies = Set.copyOf(requireNonNull(dependencies, "dependencies is null"));
        this.command = requireNonNull(command, "command is null");
        this.workingDirectory = requireNonNull(workingDirectory, "workingDirectory is null");
        this.environment = Map.copyOf(requireNonNull(environment, "environment is null"));
        this.logFile = requireNonNull(logFile, "logFile is null");
        this.healthProbe = requireNonNull(healthProbe, "healthProbe is null");
        this.endpoint = requireNonNull(endpoint, "endpoint is null");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Set<String> dependencies() {
        return dependencies;
    }

    @Override
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is already running (pid " + process.pid() + ")");
        }
        process = ManagedProcess.start(name, command.get(), workingDirectory, environment, logFile);
    }

    @Override
    public boolean isHealthy() {
        ManagedProcess current = process;
        return current != null && current.isAlive() && healthProbe.getAsBoolean();
    }

    @Override
    public Optional<String> failure() {
        ManagedProcess current = process;
        if (current == null || current.isAlive()) {
            return Optional.empty();
        }
        return Optional.of(name + " exited with code " + current.exitCode() + "; last lines of " + logFile + ":"
                + System.lineSeparator() + current.logTail());
    }

    @Override
    public String endpoint() {
        return endpoint;
    }

    @Override
    public Optional<Path> logFile() {
        return Optional.of(logFile);
    }

    @Override
    public synchronized void stop() {
        if (process != null) {
            process.stop(STOP_GRACE_PERIOD);
            process = null;
        }
    }

    @Override
    public Optional<ComponentExit> exit() {
        ManagedProcess current = process;
        if (current == null || current.isAlive()) {
            return Optional.empty();
        }
        return Optional.of(new ComponentExit(current.exitCode(), Optional.of(logFile)));
    }

    /** Freezes the process (SIGSTOP) until {@link #resume()}; for failure-injection tests. */
    public synchronized void pause() {
        running("pause").pause();
    }

    /** Lets a paused process run again (SIGCONT). */
    public synchronized void resume() {
        running("resume").resume();
    }

    private ManagedProcess running(String action) {
        ManagedProcess current = process;
        if (current == null || !current.isAlive()) {
            throw new IllegalStateException("Cannot " + action + " " + name + ": it is not running");
        }
        return current;
    }

    /** The running process, for measurements such as its CPU time; empty while it is stopped or has exited. */
    @Override
    public Optional<ProcessHandle> processHandle() {
        ManagedProcess current = process;
        return current != null && current.isAlive() ? Optional.of(current.handle()) : Optional.empty();
    }

    /**
     * Kills the process as a crash would (SIGKILL, no shutdown hooks) and waits until it has ended; for
     * failure-injection tests. The ended process stays visible as {@link #exit()}, so the stack's supervisor restarts
     * the component.
     */
    public synchronized void kill() {
        if (process != null) {
            process.kill();
        }
    }
}
