package io.fleetlake.operations.verify;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Map;

/**
 * The pipeline's committed offsets of the raw positions topic, as read at one moment. The pipeline commits them when a
 * checkpoint completes, the same moment it commits its Iceberg snapshot.
 *
 * @param offsets per partition, the next record the pipeline will read; a partition without one has nothing committed
 * @param readAt when they were read: the moment against which {@code fleet verify} measures how long a record has been
 *     waiting
 */
public record PipelineOffsets(Map<Integer, Long> offsets, Instant readAt) {
    public PipelineOffsets {
        offsets = Map.copyOf(requireNonNull(offsets, "offsets is null"));
        requireNonNull(readAt, "readAt is null");
    }

    /** Whether the pipeline has committed past the record: it has read it and completed a checkpoint since. */
    public boolean committedPast(int partition, long offset) {
        return offset < offsets.getOrDefault(partition, 0L);
    }
}
