package io.fleetlake.deployment;

import java.nio.file.Files;
import java.nio.file.Path;

/** Files of the reference deployment in this checkout. */
final class Repository {
    static final String COMPOSE_FILE = "docker-compose.yml";
    static final String ENVIRONMENT_EXAMPLE = ".env.example";

    private static final String ROOT_PROPERTY = "repository.root";

    private Repository() {}

    /** The checkout's root folder, set by the build as the system property {@value #ROOT_PROPERTY}. */
    static Path root() {
        String configured = System.getProperty(ROOT_PROPERTY);
        if (configured == null) {
            throw new IllegalStateException("System property " + ROOT_PROPERTY + " is not set: run the tests with"
                    + " Maven (mvn -pl deployment verify), which points it at the repository root");
        }
        Path root = Path.of(configured).toAbsolutePath().normalize();
        if (!Files.isRegularFile(root.resolve(COMPOSE_FILE))) {
            throw new IllegalStateException(
                    root + " has no " + COMPOSE_FILE + ": " + ROOT_PROPERTY + " must name the repository root");
        }
        return root;
    }

    static Path file(String relativePath) {
        return root().resolve(relativePath);
    }

    /** The compose file with the variables of {@code .env.example}, as a user who copied it to {@code .env}. */
    static ComposeFile exampleDeployment() {
        return ComposeFile.read(file(COMPOSE_FILE), DotEnvFile.read(file(ENVIRONMENT_EXAMPLE)));
    }
}
