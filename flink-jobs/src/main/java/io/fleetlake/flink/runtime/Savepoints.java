package io.fleetlake.flink.runtime;

import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.restore.RestorePoint;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.runtime.checkpoint.Checkpoints;

/** What a savepoint on this machine's file system is, as a restore point: read from its {@code _metadata}. */
public final class Savepoints {
    private static final String METADATA_FILE = "_metadata";

    private Savepoints() {}

    /**
     * @param jobId the job that took it (Flink names the savepoint's folder after the first six digits only)
     * @param location the {@code file:} location Flink returned for it
     * @throws IOException when the metadata cannot be read
     */
    public static RestorePoint restorePoint(String jobId, String location, PipelineMode mode) throws IOException {
        Path directory = localDirectory(location);
        Path metadata = directory.resolve(METADATA_FILE);
        long checkpointId;
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(metadata)))) {
            // Only read: the metadata's state handles are never disposed here, which would delete the savepoint.
            checkpointId = Checkpoints.loadCheckpointMetadata(in, Savepoints.class.getClassLoader(), location)
                    .getCheckpointId();
        }
        return new RestorePoint(
                jobId,
                checkpointId,
                Files.getLastModifiedTime(metadata).toInstant(),
                location,
                mode,
                RestorePoint.Kind.SAVEPOINT);
    }

    private static Path localDirectory(String location) {
        URI uri = URI.create(location);
        if (uri.getScheme() == null) {
            return Path.of(location);
        }
        if (!"file".equals(uri.getScheme())) {
            throw new IllegalArgumentException("Savepoint " + location + " is not on this machine's file system");
        }
        return Path.of(uri);
    }
}
