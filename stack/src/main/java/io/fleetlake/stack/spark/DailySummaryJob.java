package io.fleetlake.stack.spark;

import static java.util.Objects.requireNonNull;

import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.process.FleetHome;
import io.fleetlake.stack.process.JavaCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs the Spark daily summary ({@code spark-jobs}) against the embedded stack's catalog and storage, as its own JVM
 * (Spark's dependencies stay out of the launcher), and waits for it.
 */
public final class DailySummaryJob {
    private static final String MODULE = "spark-jobs";
    private static final String MAIN_CLASS = "io.fleetlake.spark.DailySummaryMain";

    private final StackSettings settings;
    private final FleetHome home;

    public DailySummaryJob(StackSettings settings, FleetHome home) {
        this.settings = requireNonNull(settings, "settings is null");
        this.home = requireNonNull(home, "home is null");
    }

    /**
     * Summarises one UTC day; the job's output goes to this process's standard output and error.
     *
     * @return the job's exit code (0 when the summary was written)
     */
    public int run(LocalDate day) throws InterruptedException {
        Path configFile = settings.dataDirectory().resolve("conf").resolve("spark-daily-summary.properties");
        writeConfiguration(configFile);
        List<String> jvmOptions = new ArrayList<>(List.of("-Xmx1g"));
        jvmOptions.addAll(home.launchJvmOptions(MODULE));
        List<String> command = new JavaCommand(
                        JavaCommand.currentJavaHome(),
                        jvmOptions,
                        home.launchClasspath(MODULE, MODULE),
                        MAIN_CLASS,
                        List.of("--config", configFile.toString(), "--date", day.toString()))
                .toCommandLine();
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        // Spark names its executor after the host's address unless told to stay on the configured one.
        builder.environment().put("SPARK_LOCAL_IP", settings.host());
        try {
            return builder.start().waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the Spark daily summary: " + e.getMessage(), e);
        }
    }

    private void writeConfiguration(Path file) {
        Map<String, String> configuration = new TreeMap<>(Map.of(
                "spark.catalog-uri", settings.catalogUri(),
                "spark.warehouse", settings.warehouse(),
                "spark.s3-endpoint", settings.s3Endpoint(),
                "spark.s3-access-key", settings.s3AccessKey(),
                "spark.s3-secret-key", settings.s3SecretKey(),
                "spark.s3-region", settings.s3Region()));
        settings.configuration().withPrefix("spark.").forEach((key, value) -> configuration.put("spark." + key, value));
        try {
            Files.createDirectories(file.getParent());
            try (Writer writer = Files.newBufferedWriter(file)) {
                for (Map.Entry<String, String> entry : configuration.entrySet()) {
                    writer.write(entry.getKey() + "=" + entry.getValue().replace("\\", "\\\\") + "\n");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }
}
