package io.fleetlake.stack.it;

import io.fleetlake.stack.EmbeddedServers;
import io.fleetlake.stack.EmbeddedStack.StackException;
import io.fleetlake.stack.StackServers;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.containers.ContainerServers;
import io.fleetlake.stack.containers.DockerEngine;
import io.fleetlake.stack.process.FleetHome;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Which servers the end-to-end tests run against, chosen by the system property {@value #PROPERTY} ({@code embedded}
 * by default; the Maven profile {@code containers} sets {@code containers}). The tests are the same for both.
 */
public enum StackProvider {
    /** Servers as processes on this machine, started from Maven artifacts: no Docker involved. */
    EMBEDDED,
    /** Servers in containers: needs a Docker engine. */
    CONTAINERS;

    public static final String PROPERTY = "fleet.it.stack";

    /** The provider the system property names. */
    public static StackProvider fromSystemProperties() {
        return named(System.getProperty(PROPERTY, ""));
    }

    /** The provider named {@code value}, in any case; blank means the default, {@link #EMBEDDED}. */
    static StackProvider named(String value) {
        if (value.isBlank()) {
            return EMBEDDED;
        }
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    PROPERTY + " = '" + value + "' is not a stack provider: use one of "
                            + Arrays.stream(values())
                                    .map(provider -> provider.name().toLowerCase(Locale.ROOT))
                                    .collect(Collectors.joining(", ")),
                    e);
        }
    }

    /**
     * Fails at once, with what to do, when this provider cannot run here: the containers provider asks Testcontainers
     * for a Docker engine. The embedded provider asks nothing, so the default run neither touches Docker nor loads
     * Testcontainers.
     *
     * @throws StackException when the containers provider finds no Docker engine
     */
    void requireAvailable() {
        requireAvailable(DockerEngine::testcontainers);
    }

    /** {@link #requireAvailable()} with the engine behind a seam. */
    void requireAvailable(Supplier<DockerEngine> docker) {
        if (this == CONTAINERS) {
            docker.get().unavailableReason().ifPresent(reason -> {
                throw new StackException(noDockerEngineMessage(reason));
            });
        }
    }

    StackServers servers(StackSettings settings, FleetHome home) {
        return this == CONTAINERS ? ContainerServers.create(settings, home) : new EmbeddedServers(settings, home);
    }

    static String noDockerEngineMessage(String reason) {
        return "-Pcontainers needs a Docker engine; none is reachable (" + reason
                + "). Run without -Pcontainers to use the embedded stack.";
    }
}
