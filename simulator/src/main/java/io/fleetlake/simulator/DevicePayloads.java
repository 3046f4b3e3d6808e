package io.fleetlake.simulator;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Position;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.model.codec.PositionSchemas.SchemaVersion;

/** Encodes positions the way the fleet's devices do. Thread-safe. */
final class DevicePayloads {
    // PositionCodec is not thread-safe: encoding holds its monitor.
    private final PositionCodec codec = PositionCodec.bundled();
    // The devices run the first firmware: a newer schema version must not change what they send.
    private final SchemaVersion firmwareSchema = codec.schemas().versions().get(0);

    byte[] encode(Position position, PayloadFormat format) {
        requireNonNull(position, "position is null");
        requireNonNull(format, "format is null");
        synchronized (codec) {
            return format == PayloadFormat.JSON
                    ? codec.encodeJson(position)
                    : codec.encodeAvro(position, firmwareSchema);
        }
    }
}
