package io.fleetlake.stack.verify;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Topics;
import java.util.Optional;

/**
 * One record of the raw positions topic as {@code fleet verify} sees it.
 *
 * @param partition its partition of {@link Topics#RAW_POSITIONS}
 * @param offset its offset there
 * @param key its (vehicle_id, event_time) decoded with the pipeline's codec; empty when the payload does not decode
 */
public record RawRecord(int partition, long offset, Optional<FixKey> key) {
    public RawRecord {
        requireNonNull(key, "key is null");
    }

    /** For example {@code gps.raw.positions/1/4711}. */
    public String location() {
        return Topics.RAW_POSITIONS + "/" + partition + "/" + offset;
    }
}
