package io.fleetlake.stack.component;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.trino.TrinoConfig;
import io.fleetlake.trino.TrinoServer;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Trino, assembled by the {@code trino} module and run in its own JVM (Java 22 or newer, located by the trino module).
 * Starting blocks until Trino reports that it has finished starting. Its server log is appended to at every start,
 * after a start marker, and rotated when it has grown large ({@link io.fleetlake.common.process.ChildProcess}).
 */
public final class TrinoComponent implements Component {
    private final String name;
    private final Set<String> dependencies;
    private final Map<String, String> configuration;
    private final String endpoint;
    private volatile TrinoServer server;

    public TrinoComponent(String name, Set<String> dependencies, Map<String, String> configuration, String endpoint) {
        this.name = requireNonNull(name, "name is null");
        this.dependencies = Set.copyOf(requireNonNull(dependencies, "dependencies is null"));
        this.configuration = Map.copyOf(requireNonNull(configuration, "configuration is null"));
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

    /** Not synchronized with {@link #stop()}: a stop during the long start must close the starting server. */
    @Override
    public void start() {
        TrinoServer starting = new TrinoServer(TrinoConfig.from(ConfigSource.of(configuration)));
        server = starting;
        starting.start();
    }

    @Override
    public boolean isHealthy() {
        TrinoServer current = server;
        if (current == null) {
            return false;
        }
        try {
            return current.isReady();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public Optional<String> failure() {
        return Optional.empty();
    }

    @Override
    public String endpoint() {
        return endpoint;
    }

    @Override
    public Optional<Path> logFile() {
        TrinoServer current = server;
        return current == null ? Optional.empty() : Optional.of(current.logFile());
    }

    @Override
    public Optional<ProcessHandle> processHandle() {
        TrinoServer current = server;
        return current == null ? Optional.empty() : current.processHandle();
    }

    @Override
    public Optional<ComponentExit> exit() {
        TrinoServer current = server;
        if (current == null) {
            return Optional.empty();
        }
        try {
            if (ProcessHandle.of(current.processId())
                    .map(ProcessHandle::isAlive)
                    .orElse(false)) {
                return Optional.empty();
            }
            // The process has ended: waiting for it returns its status at once.
            return Optional.of(new ComponentExit(current.awaitTermination(), Optional.of(current.logFile())));
        } catch (IllegalStateException notLaunched) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    @Override
    public void stop() {
        TrinoServer current = server;
        server = null;
        if (current != null) {
            current.close();
        }
    }
}
