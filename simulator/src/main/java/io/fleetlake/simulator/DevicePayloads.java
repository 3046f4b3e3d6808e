package io.fleetlake.simulator;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Position;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.model.codec.PositionCodec;

/** Encodes positions the way the fleet's devices do. Thread-safe. */
final class DevicePayloads {
    // PositionCodec is not thread-safe: encoding holds its monitor.
    private final PositionCodec codec = PositionCodec.bundled();

    /**
     * @param schemaVersion the Position schema version an Avro device's firmware writes; fields the version lacks are
     *     left out. A JSON object carries every measurement the position has (the fleet model leaves the battery level
     *     out for firmware 1 devices).
     */
    byte[] encode(Position position, PayloadFormat format, int schemaVersion) {
        requireNonNull(position, "position is null");
        requireNonNull(format, "format is null");
        synchronized (codec) {
            return format == PayloadFormat.JSON
                    ? codec.encodeJson(position)
                    : codec.encodeAvro(position, codec.schemas().version(schemaVersion));
        }
    }
}
