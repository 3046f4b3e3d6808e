package io.fleetlake.model;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.avro.SchemaNormalization;

/**
 * A 64-bit content fingerprint of a position, stable across JVMs and releases (unlike {@code hashCode}). The pipeline
 * keeps it in its de-duplication memory (checkpointed state) and compares it after a restore: a fix with the event
 * time of an accepted one is a resend when the fingerprints are equal, a conflicting resend otherwise. {@code fleet
 * verify} makes the same decision from the stored rows, so both must compute it here, in one place.
 *
 * <p>Invariant: the value of a position never changes between releases (pinned by {@code PositionFingerprintTest}); a
 * change would make every resend after an upgrade a conflict.
 */
public final class PositionFingerprint {
    private static final long ABSENT = 0x7ff8dead_0000_0000L;

    private PositionFingerprint() {}

    /**
     * CRC-64-AVRO over every field in a fixed binary layout; absent measurements have their own marker. The battery
     * level is appended only when the device reported one (the layout of the releases before {@code battery_level},
     * kept so that fingerprints never change meaning).
     */
    public static long of(Position position) {
        byte[] vehicleId = position.vehicleId().getBytes(StandardCharsets.UTF_8);
        int batteryBytes = position.batteryLevel() == null ? 0 : Long.BYTES;
        ByteBuffer buffer = ByteBuffer.allocate(Integer.BYTES + vehicleId.length + 9 * Long.BYTES + batteryBytes);
        buffer.putInt(vehicleId.length)
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
        if (position.batteryLevel() != null) {
            buffer.putLong(Double.doubleToLongBits(position.batteryLevel()));
        }
        return SchemaNormalization.fingerprint64(buffer.array());
    }
}
