package io.fleetlake.stack.cluster;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.restore.RestorePoint;
import io.fleetlake.stack.cluster.RestorePoints.RetainedCheckpointFinder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds a job's newest retained checkpoint by running {@code RetainedCheckpointsMain} of the {@code
 * servers/flink-cluster} module in a short-lived JVM: it reaches the checkpoint directory through Flink's own file
 * systems and S3 plugin, with the cluster's configuration, so the stack needs no S3 client of its own. It prints the
 * checkpoint's path and when its metadata was written; the checkpoint id is the number of its folder, {@code chk-<n>}.
 */
final class RetainedCheckpointsProcess implements RetainedCheckpointFinder {
    static final String MAIN_CLASS = "io.fleetlake.servers.flink.RetainedCheckpointsMain";
    /** The lines {@code RetainedCheckpointsMain} prints (its constants; that module is not on this classpath). */
    private static final String PREFIX = "newest-retained-checkpoint: ";

    private static final String COMPLETED_AT_PREFIX = "newest-retained-checkpoint-completed-at: ";
    private static final Pattern CHECKPOINT_FOLDER = Pattern.compile(".*/chk-(\\d+)/?");
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    private final Supplier<List<String>> javaCommand;
    private final Path configDirectory;
    private final Map<String, String> environment;

    /**
     * @param javaCommand the java executable, JVM options and {@code -cp} classpath, without the main class
     * @param environment with {@code FLINK_PLUGINS_DIR}
     */
    RetainedCheckpointsProcess(
            Supplier<List<String>> javaCommand, Path configDirectory, Map<String, String> environment) {
        this.javaCommand = requireNonNull(javaCommand, "javaCommand is null");
        this.configDirectory = requireNonNull(configDirectory, "configDirectory is null");
        this.environment = Map.copyOf(requireNonNull(environment, "environment is null"));
    }

    @Override
    public Optional<RestorePoint> newest(String jobId) throws IOException {
        List<String> command = new ArrayList<>(javaCommand.get());
        command.addAll(List.of(MAIN_CLASS, "--config-dir", configDirectory.toString(), "--job-id", jobId));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        String output;
        try {
            output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException("Listing the retained checkpoints of job " + jobId + " took longer than "
                        + TIMEOUT.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while listing the retained checkpoints of job " + jobId, e);
        }
        if (process.exitValue() != 0) {
            throw new IOException("Listing the retained checkpoints of job " + jobId + " failed (exit code "
                    + process.exitValue() + "): " + output.strip());
        }
        return parse(jobId, output);
    }

    /** The restore point in the tool's output, if it printed one. */
    static Optional<RestorePoint> parse(String jobId, String output) {
        Optional<String> path = line(output, PREFIX);
        if (path.isEmpty()) {
            return Optional.empty();
        }
        Matcher folder = CHECKPOINT_FOLDER.matcher(path.get());
        Optional<String> completedAt = line(output, COMPLETED_AT_PREFIX);
        if (!folder.matches() || completedAt.isEmpty()) {
            throw new IllegalStateException("RetainedCheckpointsMain printed " + path.get()
                    + " without a chk-<n> folder" + " or a completion time: " + output.strip());
        }
        return Optional.of(new RestorePoint(
                jobId,
                Long.parseLong(folder.group(1)),
                Instant.parse(completedAt.get()),
                path.get(),
                PipelineMode.CLUSTER,
                RestorePoint.Kind.CHECKPOINT));
    }

    private static Optional<String> line(String output, String prefix) {
        return output.lines()
                .filter(line -> line.startsWith(prefix))
                .map(line -> line.substring(prefix.length()).strip())
                .reduce((first, second) -> second);
    }
}
