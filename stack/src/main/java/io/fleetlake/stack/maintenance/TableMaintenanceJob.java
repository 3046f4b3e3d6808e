package io.fleetlake.stack.maintenance;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackCatalogIdentity;
import io.fleetlake.stack.process.ComponentConfigurationFile;
import io.fleetlake.stack.process.FleetHome;
import io.fleetlake.stack.process.JavaCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One run of the table maintenance ({@code table-maintenance}, {@code --once}) against the embedded stack's catalog and
 * storage, as its own JVM (Iceberg's Flink runtime stays out of the launcher), waited for. The stack's maintenance
 * component runs the same code continuously; both can run at once (their commits are validated like any other).
 */
public final class TableMaintenanceJob {
    public static final String MODULE = "table-maintenance";
    public static final String MAIN_CLASS = "io.fleetlake.maintenance.TableMaintenanceMain";
    private static final String PREFIX = "maintenance.";

    private final StackSettings settings;
    private final FleetHome home;

    public TableMaintenanceJob(StackSettings settings, FleetHome home) {
        this.settings = requireNonNull(settings, "settings is null");
        this.home = requireNonNull(home, "home is null");
    }

    /** The {@code maintenance.*} keys that point the maintenance at this stack. */
    public static Map<String, String> stackKeys(StackSettings settings) {
        return Map.of(
                PREFIX + "catalog-uri", settings.catalogUri(),
                PREFIX + "catalog-credential",
                        StackCatalogIdentity.of(settings)
                                .ensure()
                                .credential(CatalogRole.MAINTAINER)
                                .value(),
                PREFIX + "warehouse", settings.warehouse(),
                PREFIX + "s3-endpoint", settings.s3Endpoint(),
                PREFIX + "s3-access-key", settings.s3AccessKey(),
                PREFIX + "s3-secret-key", settings.s3SecretKey(),
                PREFIX + "s3-region", settings.s3Region());
    }

    /**
     * Runs maintenance once and waits for it.
     *
     * @param arguments {@code --dry-run}, {@code --table NAME}, {@code --set maintenance.KEY=VALUE}
     * @param output where the run's progress and summary go (the terminal for {@code fleet maintain})
     * @return the exit code: 0 when every step of every table succeeded
     */
    public int run(List<String> arguments, ProcessBuilder.Redirect output) throws InterruptedException {
        requireNonNull(arguments, "arguments is null");
        requireNonNull(output, "output is null");
        Path configFile = settings.dataDirectory().resolve("conf").resolve("maintenance-once.properties");
        writeConfiguration(configFile);
        List<String> jvmOptions = new ArrayList<>(List.of("-Xmx768m"));
        jvmOptions.addAll(home.launchJvmOptions(MODULE));
        jvmOptions.addAll(settings.jvmOptions(FleetStack.MAINTENANCE));
        List<String> programArguments = new ArrayList<>(List.of("--config", configFile.toString(), "--once"));
        programArguments.addAll(arguments);
        List<String> command = new JavaCommand(
                        JavaCommand.currentJavaHome(),
                        jvmOptions,
                        home.launchClasspath(MODULE, MODULE),
                        MAIN_CLASS,
                        programArguments)
                .toCommandLine();
        try {
            return new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(output)
                    .redirectInput(ProcessBuilder.Redirect.INHERIT)
                    .start()
                    .waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the table maintenance: " + e.getMessage(), e);
        }
    }

    private void writeConfiguration(Path file) {
        Map<String, String> configuration = new TreeMap<>(stackKeys(settings));
        settings.configuration().withPrefix(PREFIX).forEach((key, value) -> configuration.put(PREFIX + key, value));
        ComponentConfigurationFile.write(file, List.of(), configuration);
    }
}
