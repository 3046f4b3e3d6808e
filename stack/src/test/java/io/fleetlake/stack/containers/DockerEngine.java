package io.fleetlake.stack.containers;

import java.util.Optional;
import org.testcontainers.DockerClientFactory;

/**
 * Whether a Docker engine answers: the seam that lets the no-engine failure be tested without touching Docker, and
 * keeps Testcontainers out of the embedded run (only {@link #testcontainers()}'s check loads it).
 */
@FunctionalInterface
public interface DockerEngine {
    /** Why no Docker engine can be used; empty when one answers. */
    Optional<String> unavailableReason();

    /** The engine Testcontainers finds: DOCKER_HOST, ~/.testcontainers.properties, or the default socket. */
    static DockerEngine testcontainers() {
        return () -> {
            try {
                DockerClientFactory.instance().client();
                return Optional.empty();
            } catch (IllegalStateException e) {
                String dockerHost = Optional.ofNullable(System.getenv("DOCKER_HOST"))
                        .map(value -> "DOCKER_HOST=" + value)
                        .orElse("DOCKER_HOST is not set");
                return Optional.of("Testcontainers: " + e.getMessage() + "; " + dockerHost);
            }
        };
    }
}
