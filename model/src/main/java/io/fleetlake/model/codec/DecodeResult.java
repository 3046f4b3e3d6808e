package io.fleetlake.model.codec;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;

/** Outcome of decoding one device payload: a position, or the reason it could not be decoded. */
public sealed interface DecodeResult {
    /**
     * A decoded position.
     *
     * @param schemaVersion the Avro schema version the device wrote, or 0 for JSON
     */
    record Decoded(Position position, PayloadFormat format, int schemaVersion) implements DecodeResult {
        public Decoded {
            requireNonNull(position, "position is null");
            requireNonNull(format, "format is null");
        }
    }

    /** The payload cannot be used; {@code detail} says what exactly is wrong, for the person reading the DLQ. */
    record Rejected(RejectionReason reason, String detail) implements DecodeResult {
        public Rejected {
            requireNonNull(reason, "reason is null");
            requireNonNull(detail, "detail is null");
        }
    }
}
