package io.fleetlake.operations.verify;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * Which positions {@code fleet verify} reconciles: event times in {@code [from, to)} (records that do not decode have
 * no event time and are selected by their Kafka timestamp instead) of vehicles whose id starts with a prefix. Empty
 * bounds and prefix select everything.
 */
public record VerifyScope(Optional<Instant> from, Optional<Instant> to, Optional<String> vehiclePrefix) {
    public VerifyScope {
        requireNonNull(from, "from is null");
        requireNonNull(to, "to is null");
        requireNonNull(vehiclePrefix, "vehiclePrefix is null");
        if (from.isPresent() && to.isPresent() && !from.get().isBefore(to.get())) {
            throw new IllegalArgumentException("--from " + from.get() + " must be before --to " + to.get());
        }
    }

    public static VerifyScope everything() {
        return new VerifyScope(Optional.empty(), Optional.empty(), Optional.empty());
    }

    public boolean includesTime(Instant time) {
        return from.map(start -> !time.isBefore(start)).orElse(true)
                && to.map(end -> time.isBefore(end)).orElse(true);
    }

    /** A record without a vehicle id is only included when no prefix is set. */
    public boolean includesVehicle(Optional<String> vehicleId) {
        return vehiclePrefix
                .map(prefix -> vehicleId.map(id -> id.startsWith(prefix)).orElse(false))
                .orElse(true);
    }

    /** For example {@code "event times 2026-11-29T08:00:00Z .. 2026-11-29T09:00:00Z, vehicles VH-00*"}. */
    public String describe() {
        String time = from.isEmpty() && to.isEmpty()
                ? "all event times"
                : "event times " + from.map(Instant::toString).orElse("(start)") + " .. "
                        + to.map(Instant::toString).orElse("(now)");
        return time + ", "
                + vehiclePrefix.map(prefix -> "vehicles " + prefix + "*").orElse("all vehicles");
    }
}
