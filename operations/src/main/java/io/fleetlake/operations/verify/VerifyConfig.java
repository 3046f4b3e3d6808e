package io.fleetlake.operations.verify;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.time.Duration;

/**
 * Configuration of {@code fleet verify}, keys {@code verify.*}. Defaults pinned by {@code VerifyConfigTest}.
 *
 * @param stalledAfter {@value #STALLED_AFTER}: how long a raw record may wait before the pipeline commits past it;
 *     older ones are stalled. Default: two checkpoint intervals of the pipeline ({@value #CHECKPOINT_INTERVAL}, the
 *     same key the pipeline reads) plus {@link #STALL_MARGIN}, because the pipeline commits its offsets when a
 *     checkpoint completes: a record waits at most one interval for the next checkpoint to start and one for it to
 *     complete, and the margin covers a slow checkpoint and the Iceberg commit on a loaded machine.
 */
public record VerifyConfig(Duration stalledAfter) {
    public static final String STALLED_AFTER = "verify.stalled-after";
    /** The pipeline's key; verify reads it to derive its default threshold. */
    public static final String CHECKPOINT_INTERVAL = "pipeline.checkpoint-interval";
    /** The pipeline's default of {@value #CHECKPOINT_INTERVAL}. */
    public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofSeconds(10);

    public static final Duration STALL_MARGIN = Duration.ofSeconds(30);

    public VerifyConfig {
        requireNonNull(stalledAfter, "stalledAfter is null");
        if (stalledAfter.isNegative() || stalledAfter.isZero()) {
            throw new ConfigException(STALLED_AFTER + " must be positive, got " + stalledAfter);
        }
    }

    public static VerifyConfig from(ConfigSource source) {
        Duration checkpointInterval = source.duration(CHECKPOINT_INTERVAL, DEFAULT_CHECKPOINT_INTERVAL);
        return new VerifyConfig(source.duration(STALLED_AFTER, defaultStalledAfter(checkpointInterval)));
    }

    /** Two checkpoint intervals plus {@link #STALL_MARGIN}. */
    public static Duration defaultStalledAfter(Duration checkpointInterval) {
        return checkpointInterval.multipliedBy(2).plus(STALL_MARGIN);
    }
}
