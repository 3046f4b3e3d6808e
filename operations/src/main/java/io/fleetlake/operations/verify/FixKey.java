package io.fleetlake.operations.verify;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * What identifies a position in every stage: the vehicle and the event time, to the microsecond (Iceberg's
 * precision). The pipeline de-duplicates on it, so it is the key of the exactly-once promise.
 *
 * @param vehicleId the vehicle
 * @param eventMicros the event time in microseconds since the epoch
 */
public record FixKey(String vehicleId, long eventMicros) implements Comparable<FixKey> {
    public FixKey {
        requireNonNull(vehicleId, "vehicleId is null");
    }

    public static FixKey of(String vehicleId, Instant eventTime) {
        return new FixKey(vehicleId, micros(eventTime));
    }

    /** Microseconds since the epoch; finer digits are dropped, as Iceberg drops them. */
    public static long micros(Instant instant) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
    }

    public Instant eventTime() {
        return Instant.EPOCH.plus(eventMicros, ChronoUnit.MICROS);
    }

    @Override
    public int compareTo(FixKey other) {
        int byVehicle = vehicleId.compareTo(other.vehicleId);
        return byVehicle != 0 ? byVehicle : Long.compare(eventMicros, other.eventMicros);
    }

    /** For example {@code VH-0001@2026-11-29T08:00:00Z}. */
    @Override
    public String toString() {
        return vehicleId + "@" + eventTime();
    }
}
