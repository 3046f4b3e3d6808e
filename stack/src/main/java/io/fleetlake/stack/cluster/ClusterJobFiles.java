package io.fleetlake.stack.cluster;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;

/**
 * What the stack remembers about the cluster's pipeline job, in {@code <data-dir>/flink-cluster/}, so that the next
 * submission resumes exactly where the last job stopped, also after the launcher or the JobManager was restarted.
 * Each file has one writer:
 *
 * <ul>
 *   <li>{@value #JOB_FILE}: the job the stack submitted last, the snapshot it was started from and its parallelism;
 *       written by the launcher at every submission;
 *   <li>{@value #FINAL_SAVEPOINTS_FILE}: one line {@code <job id> <savepoint path>} per job stopped with a savepoint,
 *       appended by whoever stopped it (the launcher when the stack stops, {@code fleet cluster rescale}); a stopped job
 *       writes no checkpoint after its final savepoint, so that savepoint is where it ended;
 *   <li>{@value #PARALLELISM_FILE}: the parallelism the next submission uses, written by {@code fleet cluster rescale};
 *       without it the pipeline's {@code pipeline.parallelism}.
 * </ul>
 *
 * None of them is configuration: a restore path is an argument of one submission and is never read back as a setting.
 */
public final class ClusterJobFiles {
    static final String JOB_FILE = "job.properties";
    static final String FINAL_SAVEPOINTS_FILE = "final-savepoints";
    static final String PARALLELISM_FILE = "parallelism";

    private final Path directory;

    /** @param directory {@code <data-dir>/flink-cluster} */
    public ClusterJobFiles(Path directory) {
        this.directory = requireNonNull(directory, "directory is null");
    }

    /** The job the stack submitted last, if it ever submitted one in this data folder. */
    public Optional<SubmittedJob> lastSubmitted() {
        Path file = directory.resolve(JOB_FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
        return Optional.of(new SubmittedJob(
                properties.getProperty("job-id"),
                Optional.ofNullable(properties.getProperty("restored-from")),
                Integer.parseInt(properties.getProperty("parallelism")),
                Instant.parse(properties.getProperty("submitted-at"))));
    }

    /** Replaces the record of the last submitted job (written to a new file, then moved over the old one). */
    public void recordSubmitted(SubmittedJob job) {
        Properties properties = new Properties();
        properties.setProperty("job-id", job.jobId());
        job.restoredFrom().ifPresent(path -> properties.setProperty("restored-from", path));
        properties.setProperty("parallelism", Integer.toString(job.parallelism()));
        properties.setProperty("submitted-at", job.submittedAt().toString());
        Path file = directory.resolve(JOB_FILE);
        try {
            Files.createDirectories(directory);
            Path next = Files.createTempFile(directory, JOB_FILE, ".next");
            try (Writer writer = Files.newBufferedWriter(next, StandardCharsets.UTF_8)) {
                properties.store(writer, "The pipeline job the stack submitted last; written at every submission");
            }
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }

    /** Notes that {@code jobId} was stopped with the savepoint {@code path}. */
    public void recordFinalSavepoint(String jobId, String path) {
        Path file = directory.resolve(FINAL_SAVEPOINTS_FILE);
        try {
            Files.createDirectories(directory);
            Files.writeString(
                    file,
                    jobId + " " + path + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }

    /** The savepoint {@code jobId} was stopped with, if it was stopped with one. */
    public Optional<String> finalSavepoint(String jobId) {
        Path file = directory.resolve(FINAL_SAVEPOINTS_FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            Optional<String> found = Optional.empty();
            for (String line : lines) {
                String[] parts = line.strip().split(" ", 2);
                if (parts.length == 2 && parts[0].equals(jobId)) {
                    found = Optional.of(parts[1]);
                }
            }
            return found;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }

    /** The parallelism {@code fleet cluster rescale} asked for, if it was run. */
    public OptionalInt requestedParallelism() {
        Path file = directory.resolve(PARALLELISM_FILE);
        if (!Files.isRegularFile(file)) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(
                    Files.readString(file, StandardCharsets.UTF_8).strip()));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        } catch (NumberFormatException e) {
            throw new IllegalStateException(
                    file + " does not hold a parallelism: rewrite it with fleet cluster rescale");
        }
    }

    public void requestParallelism(int parallelism) {
        Path file = directory.resolve(PARALLELISM_FILE);
        try {
            Files.createDirectories(directory);
            Files.writeString(file, parallelism + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }

    /**
     * A job the stack submitted.
     *
     * @param restoredFrom the checkpoint or savepoint it was started from; empty for a start from the Kafka offsets
     */
    public record SubmittedJob(String jobId, Optional<String> restoredFrom, int parallelism, Instant submittedAt) {
        public SubmittedJob {
            requireNonNull(jobId, "jobId is null");
            requireNonNull(restoredFrom, "restoredFrom is null");
            requireNonNull(submittedAt, "submittedAt is null");
        }
    }
}
