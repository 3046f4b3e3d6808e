package io.fleetlake.flink.config;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.restore.RestoreGuard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * How the pipeline on its own MiniCluster stops and what it may start from, keys {@value #DIRECTORY}, {@value
 * #STOP_TIMEOUT} and {@value RestoreGuard#START_FROM_OFFSETS_AFTER_JOB}. A graceful stop (SIGTERM) stops the job with a
 * savepoint in Flink's canonical format in the handover folder, which a start in either pipeline mode can restore (the
 * cluster's RocksDB as well as this heap state backend); every start lets {@link RestoreGuard} choose between the newest
 * retained checkpoint and that savepoint. Defaults are pinned by {@code FleetPipelineConfigTest}.
 *
 * @param directory the handover folder ({@code <data-dir>/handover} in the stack); empty: a stop cancels the job, which
 *     keeps its last checkpoint, and no handover savepoint is offered at start
 * @param stopTimeout how long stopping with a savepoint may take before the job is cancelled instead (it then resumes
 *     from its last retained checkpoint); it must end within the stack's stop grace period of 30 s, after which the
 *     process is killed
 * @param startFromOffsetsAfterJob the Flink job after whose commits a start without a safe restore point may begin from
 *     the consumer group's committed offsets ({@link RestoreGuard}); only honoured while that job is the last to have
 *     committed
 */
public record HandoverConfig(
        Optional<Path> directory, Duration stopTimeout, Optional<String> startFromOffsetsAfterJob) {
    public static final String DIRECTORY = "pipeline.handover-dir";
    public static final String STOP_TIMEOUT = "pipeline.stop-timeout";

    /** Leaves 10 s of the stack's 30 s grace period for cancelling the job when the savepoint does not complete. */
    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(20);

    public HandoverConfig {
        requireNonNull(directory, "directory is null");
        requireNonNull(stopTimeout, "stopTimeout is null");
        requireNonNull(startFromOffsetsAfterJob, "startFromOffsetsAfterJob is null");
        directory = directory.map(path -> path.toAbsolutePath().normalize());
        directory.ifPresent(path -> {
            if (Files.exists(path) && !Files.isDirectory(path)) {
                throw new ConfigException("Invalid configuration " + DIRECTORY + " = " + path
                        + ": it exists but is not a directory; choose a directory path");
            }
        });
        if (stopTimeout.isZero() || stopTimeout.isNegative()) {
            throw new ConfigException("Invalid configuration " + STOP_TIMEOUT + " = " + stopTimeout
                    + ": expected a positive duration such as 20s");
        }
        startFromOffsetsAfterJob = startFromOffsetsAfterJob.map(String::trim).filter(job -> !job.isEmpty());
    }

    public static HandoverConfig defaults() {
        return from(ConfigSource.empty());
    }

    public static HandoverConfig from(ConfigSource source) {
        return new HandoverConfig(
                source.string(DIRECTORY).map(Path::of),
                source.duration(STOP_TIMEOUT, DEFAULT_STOP_TIMEOUT),
                source.string(RestoreGuard.START_FROM_OFFSETS_AFTER_JOB));
    }
}
