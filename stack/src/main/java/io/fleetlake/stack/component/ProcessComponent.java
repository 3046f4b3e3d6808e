package io.fleetlake.stack.component;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.process.ChildProcess;
import io.fleetlake.common.process.ListeningSockets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A component that is a child process ({@link ChildProcess}): a JVM of one of the project's modules, or a native
 * server.
 *
 * <p>It is healthy only while <em>its own</em> process answers: when it declares the ports it listens on, its health
 * probe counts only once its process (or a descendant) listens on each of them, so that a stray process holding the
 * port (a leftover of another run, another program) is never taken for it. Such a port is reported when the component
 * starts, naming the process that holds it. A leftover of an earlier run of the same data folder is stopped before the
 * component starts (its pid file, {@code <working directory>/<name>.pid}).
 */
public final class ProcessComponent implements Component {
    private static final Duration STOP_GRACE_PERIOD = Duration.ofSeconds(30);

    private final String name;
    private final Set<String> dependencies;
    private final Supplier<List<String>> command;
    private final Path workingDirectory;
    private final Map<String, String> environment;
    private final Path logFile;
    private final BooleanSupplier healthProbe;
    private final Set<Integer> ports;
    private final String endpoint;
    private volatile ChildProcess process;

    private ProcessComponent(Builder builder) {
        this.name = builder.name;
        this.dependencies = builder.dependencies;
        this.command = builder.command;
        this.workingDirectory = builder.workingDirectory;
        this.environment = builder.environment;
        this.logFile = builder.logFile;
        this.healthProbe = builder.healthProbe;
        this.ports = builder.ports;
        this.endpoint = builder.endpoint;
    }

    /** A builder of the component called {@code name}, unique in the stack. */
    public static Builder builder(String name) {
        return new Builder(name);
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
        Path pidFile = pidFile();
        ChildProcess.stopLeftover(name, pidFile);
        requirePortsFree();
        process = ChildProcess.start(name, command.get(), workingDirectory, environment, logFile, Optional.of(pidFile));
    }

    /** Where the running process is recorded, so that a start after a crash of the launcher can stop it. */
    Path pidFile() {
        return workingDirectory.resolve(name + ".pid");
    }

    private void requirePortsFree() {
        if (ports.isEmpty() || !ListeningSockets.available()) {
            return;
        }
        for (int port : ports) {
            try {
                if (ListeningSockets.isListening(port)) {
                    String holder = ListeningSockets.ownerOf(port)
                            .map(ListeningSockets::describe)
                            .orElse("a process of another user");
                    throw new IllegalStateException("Port " + port + " of " + name + " is already in use by " + holder
                            + ": stop that process, or give " + name + " another port");
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot tell whether port " + port + " is free: " + e.getMessage(), e);
            }
        }
    }

    @Override
    public boolean isHealthy() {
        ChildProcess current = process;
        return current != null && current.isAlive() && listensOnItsPorts(current) && healthProbe.getAsBoolean();
    }

    private boolean listensOnItsPorts(ChildProcess current) {
        if (ports.isEmpty() || !ListeningSockets.available()) {
            return true;
        }
        try {
            for (int port : ports) {
                if (!ListeningSockets.listensOn(current.handle(), port)) {
                    return false;
                }
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public Optional<String> failure() {
        ChildProcess current = process;
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
        ChildProcess current = process;
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

    private ChildProcess running(String action) {
        ChildProcess current = process;
        if (current == null || !current.isAlive()) {
            throw new IllegalStateException("Cannot " + action + " " + name + ": it is not running");
        }
        return current;
    }

    /** The running process, for measurements such as its CPU time; empty while it is stopped or has exited. */
    @Override
    public Optional<ProcessHandle> processHandle() {
        ChildProcess current = process;
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

    /** Builds a {@link ProcessComponent}; {@link #build()} says which required part is missing. */
    public static final class Builder {
        private final String name;
        private Set<String> dependencies = Set.of();
        private Supplier<List<String>> command;
        private Path workingDirectory;
        private Map<String, String> environment = Map.of();
        private Path logFile;
        private BooleanSupplier healthProbe;
        private Set<Integer> ports = Set.of();
        private String endpoint = "";

        private Builder(String name) {
            this.name = requireNonNull(name, "name is null");
        }

        /** The components that must be healthy before this one starts; none by default. */
        public Builder dependsOn(Set<String> names) {
            this.dependencies = Set.copyOf(requireNonNull(names, "names is null"));
            return this;
        }

        /** The command line, computed at every start, so that a missing build is reported when the component starts. */
        public Builder command(Supplier<List<String>> command) {
            this.command = requireNonNull(command, "command is null");
            return this;
        }

        /** Where the process runs; its pid file is kept there too. */
        public Builder workingDirectory(Path directory) {
            this.workingDirectory = requireNonNull(directory, "directory is null");
            return this;
        }

        /** Variables added to the launcher's environment; none by default. */
        public Builder environment(Map<String, String> environment) {
            this.environment = Map.copyOf(requireNonNull(environment, "environment is null"));
            return this;
        }

        /** Where the process's output is appended. */
        public Builder logFile(Path logFile) {
            this.logFile = requireNonNull(logFile, "logFile is null");
            return this;
        }

        /** One probe of the component's health, asked while its process runs. */
        public Builder healthProbe(BooleanSupplier probe) {
            this.healthProbe = requireNonNull(probe, "probe is null");
            return this;
        }

        /**
         * The ports the process listens on: it is healthy only once it holds them itself, and a start fails when
         * another process holds one. None by default (a process that only connects out).
         */
        public Builder listensOn(int... ports) {
            Set<Integer> declared = new TreeSet<>();
            for (int port : ports) {
                if (port <= 0 || port > 65_535) {
                    throw new IllegalArgumentException(name + ": no TCP port " + port);
                }
                declared.add(port);
            }
            this.ports = Set.copyOf(declared);
            return this;
        }

        /** Where users reach it, for example {@code http://127.0.0.1:18181}; none by default. */
        public Builder endpoint(String endpoint) {
            this.endpoint = requireNonNull(endpoint, "endpoint is null");
            return this;
        }

        public ProcessComponent build() {
            requireSet(command, "command(...)");
            requireSet(workingDirectory, "workingDirectory(...)");
            requireSet(logFile, "logFile(...)");
            requireSet(healthProbe, "healthProbe(...)");
            return new ProcessComponent(this);
        }

        private void requireSet(Object part, String call) {
            if (part == null) {
                throw new IllegalStateException("Process component " + name + " needs " + call + " before build()");
            }
        }
    }
}
