package io.fleetlake.stack.spark;

import static java.util.Objects.requireNonNull;

import io.fleetlake.identity.OwnerOnlyFiles;
import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackCatalogIdentity;
import io.fleetlake.stack.process.FleetHome;
import io.fleetlake.stack.process.JavaCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs a job of {@code spark-jobs} against the embedded stack's catalog and storage as its own JVM (Spark's
 * dependencies stay out of the launcher) and waits for it. The job reads a properties file written under the data
 * directory's {@code conf/}: the stack's catalog and S3 settings as {@code spark.*} keys, then every key of the stack's
 * configuration with the job's prefixes (so {@code --set spark.master=local[1]} reaches the job).
 */
final class SparkJobProcess {
    private static final String MODULE = "spark-jobs";

    private final StackSettings settings;
    private final FleetHome home;

    SparkJobProcess(StackSettings settings, FleetHome home) {
        this.settings = requireNonNull(settings, "settings is null");
        this.home = requireNonNull(home, "home is null");
    }

    /**
     * @param name names the configuration file, {@code conf/<name>.properties}
     * @param mainClass the job's entry point in spark-jobs
     * @param prefixes configuration prefixes handed to the job besides {@code spark.}
     * @param arguments after {@code --config FILE}
     * @param role the catalog role the job needs: it authenticates as the stack's client of that role
     * @return the job's exit code; its output goes to this process's standard output and error
     */
    int run(String name, String mainClass, List<String> prefixes, List<String> arguments, CatalogRole role)
            throws InterruptedException {
        Path configFile = settings.dataDirectory().resolve("conf").resolve(name + ".properties");
        writeConfiguration(configFile, prefixes, role);
        List<String> jvmOptions = new ArrayList<>(List.of("-Xmx1g"));
        jvmOptions.addAll(home.launchJvmOptions(MODULE));
        List<String> programArguments = new ArrayList<>(List.of("--config", configFile.toString()));
        programArguments.addAll(arguments);
        List<String> command = new JavaCommand(
                        JavaCommand.currentJavaHome(),
                        jvmOptions,
                        home.launchClasspath(MODULE, MODULE),
                        mainClass,
                        programArguments)
                .toCommandLine();
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        // Spark names its executor after the host's address unless told to stay on the configured one.
        builder.environment().put("SPARK_LOCAL_IP", settings.host());
        try {
            return builder.start().waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the Spark job " + mainClass + ": " + e.getMessage(), e);
        }
    }

    private void writeConfiguration(Path file, List<String> prefixes, CatalogRole role) {
        Map<String, String> configuration = new TreeMap<>(Map.of(
                "spark.catalog-uri",
                settings.catalogUri(),
                "spark.warehouse",
                settings.warehouse(),
                "spark.s3-endpoint",
                settings.s3Endpoint(),
                "spark.s3-access-key",
                settings.s3AccessKey(),
                "spark.s3-secret-key",
                settings.s3SecretKey(),
                "spark.s3-region",
                settings.s3Region(),
                "spark.catalog-credential",
                StackCatalogIdentity.of(settings).ensure().credential(role).value()));
        List<String> handed = new ArrayList<>(List.of("spark."));
        handed.addAll(prefixes);
        for (String prefix : handed) {
            settings.configuration().withPrefix(prefix).forEach((key, value) -> configuration.put(prefix + key, value));
        }
        StringBuilder content = new StringBuilder();
        for (Map.Entry<String, String> entry : configuration.entrySet()) {
            content.append(entry.getKey())
                    .append('=')
                    .append(entry.getValue().replace("\\", "\\\\"))
                    .append('\n');
        }
        try {
            // Owner-only: it holds the S3 and catalog secrets.
            OwnerOnlyFiles.write(file, content.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }
}
