package io.fleetlake.model.restore;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.PipelineMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The savepoint a graceful stop of the pipeline leaves for the next start, in either mode: the handover folder ({@code
 * <data-dir>/handover} in the stack) holds the savepoints, written by Flink in its canonical format (which either state
 * backend restores: the embedded heap state and the cluster's RocksDB), and {@value #RECORD_FILE}, which names the
 * newest one with its job, checkpoint id, time and mode. The embedded runner writes it when it stops with a savepoint,
 * the stack when it stops the cluster's job; both read it at every start and offer it to the {@link RestoreGuard}.
 *
 * <p>It is a plain folder on this machine ({@code file:} URIs): the cluster's TaskManagers run on the same host in the
 * stack. The record is written to a new file and moved over the old one, so a reader never sees half a record; the
 * savepoints it no longer names are then deleted (no job depends on them: a restored job never claims its savepoint,
 * and its first checkpoint is a full one).
 */
public final class HandoverSavepoint {
    public static final String RECORD_FILE = "savepoint.properties";
    private static final String SAVEPOINT_PREFIX = "savepoint-";

    private final Path directory;

    public HandoverSavepoint(Path directory) {
        this.directory =
                requireNonNull(directory, "directory is null").toAbsolutePath().normalize();
    }

    public Path directory() {
        return directory;
    }

    /** Where Flink writes the savepoint: the folder as a {@code file:} URI, for the savepoint's target directory. */
    public String targetDirectory() {
        return directory.toUri().toString();
    }

    /** The newest handover savepoint, or empty when no graceful stop left one here. */
    public Optional<RestorePoint> read() {
        Path file = directory.resolve(RECORD_FILE);
        Optional<Properties> record = PropertiesRecordFile.read(file);
        if (record.isEmpty()) {
            return Optional.empty();
        }
        Properties properties = record.get();
        try {
            return Optional.of(new RestorePoint(
                    required(properties, "job-id", file),
                    Long.parseLong(required(properties, "checkpoint-id", file)),
                    Instant.parse(required(properties, "completed-at", file)),
                    required(properties, "location", file),
                    PipelineMode.named(required(properties, "mode", file)),
                    RestorePoint.Kind.SAVEPOINT));
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalStateException(file + " is damaged (" + e.getMessage() + "): move it away to start"
                    + " without the handover savepoint it names");
        }
    }

    /**
     * Records {@code savepoint} as the newest handover savepoint and deletes the savepoint folders here that it
     * replaces.
     *
     * @return the savepoint folders deleted
     */
    public List<Path> record(RestorePoint savepoint) {
        requireNonNull(savepoint, "savepoint is null");
        if (savepoint.kind() != RestorePoint.Kind.SAVEPOINT) {
            throw new IllegalArgumentException("A handover is a savepoint, got " + savepoint.describe());
        }
        Properties properties = new Properties();
        properties.setProperty("job-id", savepoint.jobId());
        properties.setProperty("checkpoint-id", Long.toString(savepoint.checkpointId()));
        properties.setProperty("completed-at", savepoint.completedAt().toString());
        properties.setProperty("location", savepoint.location());
        properties.setProperty("mode", savepoint.mode().toString());
        PropertiesRecordFile.write(
                directory.resolve(RECORD_FILE),
                properties,
                "The savepoint the pipeline was stopped with last; the next start restores it"
                        + " if nothing was committed after it");
        return deleteAllBut(localPath(savepoint.location()));
    }

    private List<Path> deleteAllBut(Optional<Path> kept) {
        List<Path> deleted = new ArrayList<>();
        try (Stream<Path> children = Files.list(directory)) {
            for (Path child : children.toList()) {
                if (Files.isDirectory(child)
                        && child.getFileName().toString().startsWith(SAVEPOINT_PREFIX)
                        && kept.filter(child::equals).isEmpty()) {
                    deleteRecursively(child);
                    deleted.add(child);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete the replaced savepoints in " + directory, e);
        }
        return deleted;
    }

    private static void deleteRecursively(Path folder) throws IOException {
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    /** The folder of a {@code file:} location (Flink writes {@code file:/...}), or empty for another file system. */
    private static Optional<Path> localPath(String location) {
        URI uri = URI.create(location);
        if (uri.getScheme() == null) {
            return Optional.of(Path.of(location).toAbsolutePath().normalize());
        }
        if (!"file".equals(uri.getScheme())) {
            return Optional.empty();
        }
        return Optional.of(Path.of(uri).toAbsolutePath().normalize());
    }

    private static String required(Properties properties, String key, Path file) {
        String value = properties.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(
                    file + " has no " + key + ": move it away to start without the handover" + " savepoint it names");
        }
        return value.trim();
    }
}
