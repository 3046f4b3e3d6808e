package io.fleetlake.stack.cluster;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.rest.FlinkRestClient.Snapshot;
import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.restore.PropertiesRecordFile;
import io.fleetlake.model.restore.RestorePoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the stack remembers about the cluster's pipeline job, in {@code <data-dir>/flink-cluster/}, so that the next
 * submission resumes exactly where the last job stopped, also after the launcher or the JobManager was restarted.
 * Each file has one writer:
 *
 * <ul>
 *   <li>{@value #JOB_FILE}: the job the stack submitted last, the snapshot it was started from (with its job,
 *       checkpoint id, time and mode, for the restore guard) and its parallelism; written by the launcher at every
 *       submission;
 *   <li>{@value #FINAL_SAVEPOINTS_FILE}: one line {@code <job id> <checkpoint id> <completed at> <savepoint path>} per
 *       job stopped with a savepoint, appended by whoever stopped it (the launcher when the stack stops, {@code fleet
 *       cluster rescale}); a stopped job writes no checkpoint after its final savepoint, so that savepoint is where it
 *       ended;
 *   <li>{@value #PARALLELISM_FILE}: the parallelism the next submission uses, written by {@code fleet cluster rescale};
 *       without it the pipeline's {@code pipeline.parallelism}.
 * </ul>
 *
 * None of them is configuration: a restore path is an argument of one submission and is never read back as a setting.
 */
public final class ClusterJobFiles {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterJobFiles.class);
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
        Optional<Properties> record = PropertiesRecordFile.read(file);
        if (record.isEmpty()) {
            return Optional.empty();
        }
        Properties properties = record.get();
        Optional<String> restoredFrom = Optional.ofNullable(properties.getProperty("restored-from"));
        return Optional.of(new SubmittedJob(
                properties.getProperty("job-id"),
                restoredFrom,
                restoredFrom.flatMap(location -> restorePoint(properties, location, file)),
                Integer.parseInt(properties.getProperty("parallelism")),
                Instant.parse(properties.getProperty("submitted-at"))));
    }

    /** The restore point a record names; empty for a record of an earlier release, which kept its location only. */
    private static Optional<RestorePoint> restorePoint(Properties properties, String location, Path file) {
        String jobId = properties.getProperty("restored-from-job-id");
        if (jobId == null) {
            LOG.warn(
                    "{} names what the last job was started from ({}) without its job and checkpoint id (an earlier"
                            + " release wrote it): it is not offered as a restore point",
                    file,
                    location);
            return Optional.empty();
        }
        return Optional.of(new RestorePoint(
                jobId,
                Long.parseLong(properties.getProperty("restored-from-checkpoint-id")),
                Instant.parse(properties.getProperty("restored-from-completed-at")),
                location,
                PipelineMode.named(properties.getProperty("restored-from-mode")),
                RestorePoint.Kind.valueOf(
                        properties.getProperty("restored-from-kind").toUpperCase(Locale.ROOT))));
    }

    /** Replaces the record of the last submitted job (written to a new file, then moved over the old one). */
    public void recordSubmitted(SubmittedJob job) {
        Properties properties = new Properties();
        properties.setProperty("job-id", job.jobId());
        job.restoredFrom().ifPresent(path -> properties.setProperty("restored-from", path));
        job.restorePoint().ifPresent(point -> {
            properties.setProperty("restored-from-job-id", point.jobId());
            properties.setProperty("restored-from-checkpoint-id", Long.toString(point.checkpointId()));
            properties.setProperty(
                    "restored-from-completed-at", point.completedAt().toString());
            properties.setProperty("restored-from-mode", point.mode().toString());
            properties.setProperty("restored-from-kind", point.kind().toString());
        });
        properties.setProperty("parallelism", Integer.toString(job.parallelism()));
        properties.setProperty("submitted-at", job.submittedAt().toString());
        PropertiesRecordFile.write(
                directory.resolve(JOB_FILE),
                properties,
                "The pipeline job the stack submitted last; written at every submission");
    }

    /**
     * Notes that {@code jobId} was stopped with {@code savepoint} (as the JobManager reports it); returns it as the
     * restore point of the cluster mode it is.
     */
    public RestorePoint recordFinalSavepoint(String jobId, Snapshot savepoint) {
        RestorePoint point = new RestorePoint(
                jobId,
                savepoint.id(),
                Instant.ofEpochMilli(savepoint.completedAt()),
                savepoint.path(),
                PipelineMode.CLUSTER,
                RestorePoint.Kind.SAVEPOINT);
        Path file = directory.resolve(FINAL_SAVEPOINTS_FILE);
        try {
            Files.createDirectories(directory);
            Files.writeString(
                    file,
                    // The path last: it may hold spaces.
                    jobId + " " + point.checkpointId() + " " + point.completedAt() + " " + point.location() + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
        return point;
    }

    /**
     * The savepoint {@code jobId} was stopped with, if it was stopped with one; a line of an earlier release, without
     * the savepoint's checkpoint id and time, is not offered (logged).
     */
    public Optional<RestorePoint> finalSavepoint(String jobId) {
        Path file = directory.resolve(FINAL_SAVEPOINTS_FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            Optional<RestorePoint> found = Optional.empty();
            for (String line : lines) {
                String[] parts = line.strip().split(" ", 4);
                if (!parts[0].equals(jobId)) {
                    continue;
                }
                if (parts.length == 4 && parts[1].chars().allMatch(Character::isDigit)) {
                    found = Optional.of(new RestorePoint(
                            jobId,
                            Long.parseLong(parts[1]),
                            Instant.parse(parts[2]),
                            parts[3],
                            PipelineMode.CLUSTER,
                            RestorePoint.Kind.SAVEPOINT));
                } else {
                    LOG.warn(
                            "{} records a final savepoint of job {} without its checkpoint id and time (an earlier"
                                    + " release wrote it: {}): it is not offered as a restore point",
                            file,
                            jobId,
                            line.strip());
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
     * @param restoredFrom where the checkpoint or savepoint it was started from is; empty for a start from the Kafka
     *     offsets
     * @param restorePoint that checkpoint or savepoint; empty also in a record of an earlier release, which kept only
     *     its location
     */
    public record SubmittedJob(
            String jobId,
            Optional<String> restoredFrom,
            Optional<RestorePoint> restorePoint,
            int parallelism,
            Instant submittedAt) {
        public SubmittedJob {
            requireNonNull(jobId, "jobId is null");
            requireNonNull(restoredFrom, "restoredFrom is null");
            requireNonNull(restorePoint, "restorePoint is null");
            requireNonNull(submittedAt, "submittedAt is null");
            if (restorePoint.isPresent() && !restorePoint.get().location().equals(restoredFrom.orElse(null))) {
                throw new IllegalArgumentException(
                        "The restore point " + restorePoint.get().describe()
                                + " is not at the location the job was started from, " + restoredFrom);
            }
        }

        /** A job started from {@code restorePoint}, or from the Kafka offsets when it is empty. */
        public static SubmittedJob of(
                String jobId, Optional<RestorePoint> restorePoint, int parallelism, Instant submittedAt) {
            return new SubmittedJob(
                    jobId, restorePoint.map(RestorePoint::location), restorePoint, parallelism, submittedAt);
        }
    }
}
