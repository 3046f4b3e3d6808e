package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.stack.StackPort;
import io.fleetlake.stack.identity.StackCatalogIdentity;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import io.fleetlake.stack.process.FleetHome;
import io.fleetlake.stack.spark.GeocodeLauncher;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Executes every analyst notebook against the running stack with nbclient ({@code notebooks/run_notebooks.py}); a cell
 * that fails fails the test, naming the notebook and the cell. The notebooks run in the Python environment of
 * {@code notebooks/requirements.txt}: {@code FLEET_NOTEBOOK_PYTHON}, or {@code notebooks/.venv} (which .ci/run creates).
 */
@ExtendWith(SharedStack.class)
@ResourceLock(SharedStack.LOCK)
class NotebooksIT {
    private static final Path OUTPUT = Path.of("target", "notebooks").toAbsolutePath();

    @Test
    void everyNotebookRunsTopToBottomAgainstTheStack(RunningStack running) throws Exception {
        // The trips-by-province notebook reads the places fleet geocode writes: geocode what the other tests left.
        assertThat(new GeocodeLauncher(running.settings(), FleetHome.locate()).run(false, Optional.empty()))
                .as("exit code of fleet geocode")
                .isZero();
        Path notebooks = FleetHome.locate().module("notebooks");
        Path python = python(notebooks);
        Files.createDirectories(OUTPUT);
        Path log = OUTPUT.resolve("run_notebooks.log");
        ProcessBuilder builder = new ProcessBuilder(
                        python.toString(), "run_notebooks.py", "--output", OUTPUT.toString())
                .directory(notebooks.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment()
                .putAll(Map.of(
                        "FLEET_TRINO_HOST", running.settings().host(),
                        "FLEET_TRINO_PORT", Integer.toString(running.settings().port(StackPort.TRINO_HTTPS)),
                        "FLEET_TRINO_PASSWORD",
                                running.settings().trinoSecrets().password(TrinoUser.ANALYST),
                        "FLEET_TRINO_CA",
                                running.settings()
                                        .trinoSecrets()
                                        .caCertificate()
                                        .toString(),
                        "FLEET_CATALOG_URI", running.settings().catalogUri(),
                        "FLEET_S3_ENDPOINT", running.settings().s3Endpoint(),
                        "FLEET_S3_ACCESS_KEY", running.settings().s3AccessKey(),
                        "FLEET_S3_SECRET_KEY", running.settings().s3SecretKey(),
                        "FLEET_S3_REGION", running.settings().s3Region(),
                        // The notebooks read: the reader's credential, in their environment (not on a command line).
                        "FLEET_CATALOG_CREDENTIAL",
                                StackCatalogIdentity.of(running.settings())
                                        .credential(CatalogRole.READER)
                                        .value()));
        Process process = builder.start();
        boolean finished = process.waitFor(15, TimeUnit.MINUTES);
        String output = Files.readString(log, StandardCharsets.UTF_8);
        if (!finished) {
            process.destroyForcibly();
        }
        assertThat(finished)
                .as("notebooks finished within 15 minutes:%n%s", output)
                .isTrue();
        assertThat(process.exitValue())
                .as("run_notebooks.py exit code; its output:%n%s", output)
                .isZero();
        try (Stream<Path> executed = Files.list(OUTPUT)) {
            assertThat(executed.map(path -> path.getFileName().toString()).filter(name -> name.endsWith(".ipynb")))
                    .containsExactlyInAnyOrder(
                            "01-time-travel-audit.ipynb",
                            "02-fleet-analytics.ipynb",
                            "03-battery-level-evolution.ipynb",
                            "04-trips-by-province.ipynb");
        }
    }

    @Test
    void notebookHelpersPassTheirUnitTests() throws Exception {
        Path notebooks = FleetHome.locate().module("notebooks");
        Files.createDirectories(OUTPUT);
        Path log = OUTPUT.resolve("unittest.log");
        Process process = new ProcessBuilder(python(notebooks).toString(), "-m", "unittest", "discover", "-s", "tests")
                .directory(notebooks.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue())
                .as("python -m unittest in notebooks/; its output:%n%s", Files.readString(log, StandardCharsets.UTF_8))
                .isZero();
    }

    private static Path python(Path notebooks) {
        Optional<Path> configured =
                Optional.ofNullable(System.getenv("FLEET_NOTEBOOK_PYTHON")).map(Path::of);
        for (Path candidate : Stream.concat(configured.stream(), Stream.of(notebooks.resolve(".venv/bin/python")))
                .toList()) {
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("The notebook test needs the Python environment of notebooks/requirements.txt,"
                + " which is missing. Create it with: python3 -m venv notebooks/.venv && notebooks/.venv/bin/pip install"
                + " -r notebooks/requirements.txt (.ci/run does this), or set FLEET_NOTEBOOK_PYTHON.");
    }
}
