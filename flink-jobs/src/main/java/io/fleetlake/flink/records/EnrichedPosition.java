package io.fleetlake.flink.records;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.enrichment.Enrichment;
import io.fleetlake.model.Position;

/**
 * An accepted position with where the vehicle is on its planned route: what the current state, {@code fleet.positions}
 * and the per-minute windows receive. The raw record travels along, so that a position too late for its window goes to
 * the late-positions topic byte for byte.
 *
 * @param ingested the accepted position and the raw record it was decoded from
 * @param enrichment route, next stop, distances and status at this fix
 */
public record EnrichedPosition(IngestedPosition ingested, Enrichment enrichment) {
    public EnrichedPosition {
        requireNonNull(ingested, "ingested is null");
        requireNonNull(enrichment, "enrichment is null");
    }

    public Position position() {
        return ingested.position();
    }

    public String vehicleId() {
        return ingested.vehicleId();
    }

    public RawRecord source() {
        return ingested.source();
    }
}
