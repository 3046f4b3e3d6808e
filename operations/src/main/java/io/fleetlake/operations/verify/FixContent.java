package io.fleetlake.operations.verify;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Position;
import io.fleetlake.model.PositionFingerprint;
import java.time.temporal.ChronoUnit;

/**
 * A position as {@code fleet verify} compares a raw record with a stored row: its key and its {@link
 * PositionFingerprint}, the value the pipeline compares to tell a resend (same key, same fingerprint: dropped) from a
 * conflicting resend (same key, other fingerprint: rejected).
 *
 * <p>The fingerprint is taken at the precision of {@code fleet.positions}: the event time to the microsecond, as the
 * table stores it, so that a raw record and the row written from it always agree. For the millisecond event times
 * devices send this is the pipeline's own fingerprint; two payloads that differ only below the microsecond count as the
 * same position here (the pipeline keeps them apart, and then the table holds two rows of one key: duplicated).
 *
 * @param key the (vehicle_id, event_time)
 * @param fingerprint the content fingerprint; it covers the key too
 */
public record FixContent(FixKey key, long fingerprint) {
    public FixContent {
        requireNonNull(key, "key is null");
    }

    /** The content of a decoded position, or of a row read back from {@code fleet.positions}. */
    public static FixContent of(Position position) {
        Position stored = position.withEventTime(position.eventTime().truncatedTo(ChronoUnit.MICROS));
        return new FixContent(FixKey.of(stored.vehicleId(), stored.eventTime()), PositionFingerprint.of(stored));
    }
}
