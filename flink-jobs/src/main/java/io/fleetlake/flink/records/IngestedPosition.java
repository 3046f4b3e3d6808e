package io.fleetlake.flink.records;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Position;
import java.time.Instant;

/**
 * A decoded, minimally valid position with its lineage: where in the raw topic it came from and when it was ingested.
 *
 * @param position the decoded fix
 * @param sourcePartition raw topic partition
 * @param sourceOffset raw topic offset
 * @param ingestTime the Kafka record timestamp of the raw record
 */
public record IngestedPosition(Position position, int sourcePartition, long sourceOffset, Instant ingestTime) {
    public IngestedPosition {
        requireNonNull(position, "position is null");
        requireNonNull(ingestTime, "ingestTime is null");
    }

    public String vehicleId() {
        return position.vehicleId();
    }
}
