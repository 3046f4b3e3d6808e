package io.fleetlake.flink.runtime;

import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.restore.RestorePoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds the newest completed checkpoint under a checkpoint directory laid out by Flink as
 * {@code <dir>/<job id>/chk-<n>/_metadata}. A checkpoint is complete once its {@code _metadata} file exists; Flink
 * writes it last. Each restart runs under a new job id, so the newest checkpoint may be in any job's directory; the
 * newest {@code _metadata} wins, then the higher checkpoint number.
 */
public final class RetainedCheckpoints {
    static final String METADATA_FILE = "_metadata";
    private static final Pattern CHECKPOINT_DIRECTORY = Pattern.compile("chk-(\\d+)");

    private RetainedCheckpoints() {}

    /**
     * The newest completed checkpoint as a restore point of the embedded mode: its job is the name of its job's
     * directory, its checkpoint id the number of its own, its completion the time its {@code _metadata} was written.
     */
    public static Optional<RestorePoint> newestRestorePoint(Path checkpointDirectory) {
        return newest(checkpointDirectory).map(RetainedCheckpoints::restorePoint);
    }

    static RestorePoint restorePoint(Path checkpoint) {
        Matcher matcher = CHECKPOINT_DIRECTORY.matcher(checkpoint.getFileName().toString());
        if (!matcher.matches()) {
            throw new IllegalArgumentException(checkpoint + " is not a checkpoint directory chk-<n>");
        }
        Path metadata = checkpoint.resolve(METADATA_FILE);
        try {
            return new RestorePoint(
                    checkpoint.getParent().getFileName().toString(),
                    Long.parseLong(matcher.group(1)),
                    Files.getLastModifiedTime(metadata).toInstant(),
                    checkpoint.toUri().toString(),
                    PipelineMode.EMBEDDED,
                    RestorePoint.Kind.CHECKPOINT);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + metadata, e);
        }
    }

    /** The directory of the newest completed checkpoint, or empty when there is none. */
    public static Optional<Path> newest(Path checkpointDirectory) {
        if (!Files.isDirectory(checkpointDirectory)) {
            return Optional.empty();
        }
        try (Stream<Path> jobs = Files.list(checkpointDirectory)) {
            return jobs.filter(Files::isDirectory)
                    .flatMap(RetainedCheckpoints::completedCheckpoints)
                    .max(Comparator.comparing(Candidate::completedAt).thenComparingLong(Candidate::number))
                    .map(Candidate::directory);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list checkpoints in " + checkpointDirectory, e);
        }
    }

    private static Stream<Candidate> completedCheckpoints(Path jobDirectory) {
        try (Stream<Path> children = Files.list(jobDirectory)) {
            return children.map(RetainedCheckpoints::candidate).flatMap(Optional::stream).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list checkpoints in " + jobDirectory, e);
        }
    }

    private static Optional<Candidate> candidate(Path directory) {
        Matcher matcher = CHECKPOINT_DIRECTORY.matcher(directory.getFileName().toString());
        Path metadata = directory.resolve(METADATA_FILE);
        if (!matcher.matches() || !Files.isRegularFile(metadata)) {
            return Optional.empty();
        }
        try {
            return Optional.of(
                    new Candidate(directory, Long.parseLong(matcher.group(1)), Files.getLastModifiedTime(metadata)));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + metadata, e);
        }
    }

    private record Candidate(Path directory, long number, FileTime completedAt) {}
}
