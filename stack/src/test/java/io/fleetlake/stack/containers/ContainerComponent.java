package io.fleetlake.stack.containers;

import static java.util.Objects.requireNonNull;

import io.fleetlake.stack.component.Component;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame;

/**
 * A server of the stack running in a container. Starting creates and starts the container (Testcontainers waits for
 * its own readiness check), then runs the set-up the server needs; the stack then polls the health probe, as for a
 * process. Stopping removes the container: a server started again begins empty, on the same host port.
 */
public final class ContainerComponent implements Component {
    private static final int LOG_TAIL_LINES = 40;

    private final String name;
    private final Set<String> dependencies;
    private final GenericContainer<?> container;
    private final BooleanSupplier healthProbe;
    private final String endpoint;
    private final Runnable beforeStart;
    private final Runnable afterStart;

    /**
     * @param beforeStart runs before the container is created, for example to give it access to a port of this machine
     * @param afterStart runs once the container is ready, for example to create a bucket
     */
    public ContainerComponent(
            String name,
            Set<String> dependencies,
            GenericContainer<?> container,
            BooleanSupplier healthProbe,
            String endpoint,
            Runnable beforeStart,
            Runnable afterStart) {
        this.name = requireNonNull(name, "name is null");
        this.dependencies = Set.copyOf(requireNonNull(dependencies, "dependencies is null"));
        this.container = requireNonNull(container, "container is null");
        this.healthProbe = requireNonNull(healthProbe, "healthProbe is null");
        this.endpoint = requireNonNull(endpoint, "endpoint is null");
        this.beforeStart = requireNonNull(beforeStart, "beforeStart is null");
        this.afterStart = requireNonNull(afterStart, "afterStart is null");
    }

    /** A component without set-up steps. */
    public ContainerComponent(
            String name,
            Set<String> dependencies,
            GenericContainer<?> container,
            BooleanSupplier healthProbe,
            String endpoint) {
        this(name, dependencies, container, healthProbe, endpoint, () -> {}, () -> {});
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Set<String> dependencies() {
        return dependencies;
    }

    /** The container, for its configuration in tests; it is not started before {@link #start()}. */
    public GenericContainer<?> container() {
        return container;
    }

    @Override
    public synchronized void start() {
        if (container.isRunning()) {
            throw new IllegalStateException(
                    name + " is already running (container " + container.getContainerId() + ")");
        }
        beforeStart.run();
        container.start();
        afterStart.run();
    }

    @Override
    public boolean isHealthy() {
        return container.isRunning() && healthProbe.getAsBoolean();
    }

    @Override
    public Optional<String> failure() {
        if (container.getContainerId() == null || container.isRunning()) {
            return Optional.empty();
        }
        List<String> lines = container
                .getLogs(OutputFrame.OutputType.STDOUT, OutputFrame.OutputType.STDERR)
                .lines()
                .toList();
        String tail = String.join(
                System.lineSeparator(), lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        return Optional.of(name + " container (" + container.getDockerImageName() + ") stopped; last lines of its log:"
                + System.lineSeparator() + tail);
    }

    @Override
    public String endpoint() {
        return endpoint;
    }

    /** None: the container's output stays with the container; {@link #failure()} quotes its end. */
    @Override
    public Optional<Path> logFile() {
        return Optional.empty();
    }

    @Override
    public synchronized void stop() {
        container.stop();
    }
}
