package io.fleetlake.servers.flink;

import static java.util.Objects.requireNonNull;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * The newest completed checkpoint one job left in a checkpoint directory laid out by Flink as {@code
 * <dir>/<job id>/chk-<n>/_metadata}, on any file system Flink can reach (S3 through its plugin, a local folder). A
 * checkpoint is complete once its {@code _metadata} exists: Flink writes it last. Within one job checkpoint numbers
 * only grow, so the highest complete one is the newest; that is why the job id is asked for, not guessed from times.
 */
public final class RetainedCheckpoints {
    static final String METADATA_FILE = "_metadata";
    private static final Pattern CHECKPOINT_DIRECTORY = Pattern.compile("chk-(\\d+)");

    private final Path checkpointDirectory;

    /** @param checkpointDirectory the cluster's {@code execution.checkpointing.dir} */
    public RetainedCheckpoints(Path checkpointDirectory) {
        this.checkpointDirectory = requireNonNull(checkpointDirectory, "checkpointDirectory is null");
    }

    /** The job's newest complete checkpoint; empty when it left none. */
    public Optional<Retained> newest(String jobId) throws IOException {
        requireNonNull(jobId, "jobId is null");
        Path jobDirectory = new Path(checkpointDirectory, jobId);
        FileSystem fileSystem = jobDirectory.getFileSystem();
        FileStatus[] children;
        try {
            children = fileSystem.listStatus(jobDirectory);
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
        if (children == null) {
            return Optional.empty();
        }
        Retained newest = null;
        for (FileStatus child : children) {
            OptionalLong number = checkpointNumber(child.getPath().getName());
            Path metadata = new Path(child.getPath(), METADATA_FILE);
            if (number.isPresent()
                    && (newest == null || number.getAsLong() > newest.number())
                    && fileSystem.exists(metadata)) {
                newest = new Retained(
                        child.getPath(),
                        number.getAsLong(),
                        Instant.ofEpochMilli(fileSystem.getFileStatus(metadata).getModificationTime()));
            }
        }
        return Optional.ofNullable(newest);
    }

    /**
     * A complete checkpoint.
     *
     * @param number its checkpoint id
     * @param completedAt when its {@code _metadata} was written, which Flink does last
     */
    public record Retained(Path path, long number, Instant completedAt) {
        public Retained {
            requireNonNull(path, "path is null");
            requireNonNull(completedAt, "completedAt is null");
        }
    }

    static OptionalLong checkpointNumber(String directoryName) {
        Matcher matcher = CHECKPOINT_DIRECTORY.matcher(directoryName);
        return matcher.matches() ? OptionalLong.of(Long.parseLong(matcher.group(1))) : OptionalLong.empty();
    }
}
