package io.fleetlake.flink.functions;

import io.fleetlake.model.Position;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.avro.SchemaNormalization;

/**
 * A 64-bit content fingerprint of a position, stable across JVMs and releases (unlike {@code hashCode}), because it
 * is kept in checkpointed state and compared after a restore.
 */
final class PositionFingerprint {
    private static final long ABSENT = 0x7ff8dead_0000_0000L;

    private PositionFingerprint() {}

    /**
     * CRC-64-AVRO over every field in a fixed binary layout; absent measurements have their own marker. The battery
     * level is appended only when the device reported one, so a position without one keeps the fingerprint that
     * releases before {@code battery_level} stored.
     */
    static long of(Position position) {
        ByteBuffer buffer = layout(position, position.batteryLevel() == null ? 0 : Long.BYTES);
        if (position.batteryLevel() != null) {
            buffer.putLong(Double.doubleToLongBits(position.batteryLevel()));
        }
        return SchemaNormalization.fingerprint64(buffer.array());
    }

    /**
     * The fingerprint releases before {@code battery_level} stored: they did not decode it, so a resend of a position
     * they accepted must be compared without it.
     */
    static long withoutBatteryLevel(Position position) {
        return SchemaNormalization.fingerprint64(layout(position, 0).array());
    }

    private static ByteBuffer layout(Position position, int extraBytes) {
        byte[] vehicleId = position.vehicleId().getBytes(StandardCharsets.UTF_8);
        ByteBuffer buffer = ByteBuffer.allocate(Integer.BYTES + vehicleId.length + 9 * Long.BYTES + extraBytes);
        return buffer.putInt(vehicleId.length)
                .put(vehicleId)
                .putLong(position.eventTime().getEpochSecond())
                .putLong(position.eventTime().getNano())
                .putLong(Double.doubleToLongBits(position.latitude()))
                .putLong(Double.doubleToLongBits(position.longitude()))
                .putLong(Double.doubleToLongBits(position.speedKmh()))
                .putLong(Double.doubleToLongBits(position.headingDeg()))
                .putLong(position.altitudeM() == null ? ABSENT : Double.doubleToLongBits(position.altitudeM()))
                .putLong(position.accuracyM() == null ? ABSENT : Double.doubleToLongBits(position.accuracyM()))
                .putLong(position.satellites() == null ? ABSENT : position.satellites());
    }
}
