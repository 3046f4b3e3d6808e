package io.fleetlake.simulator.model;

import java.time.Duration;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Seeded random events of one kind for one vehicle, independent of the order in which times are asked for. Time is cut
 * into slots aligned to the model's epoch, short enough that a slot holds at most one event ({@code 1 h / ceil(rate)});
 * whether a slot has an event, and its details, come from a generator seeded by the fleet seed, the kind of event, the
 * vehicle and the slot. Events stay inside their slot, so a question about one time concerns a single slot.
 */
final class EventSlots {
    private static final long HOUR_MILLIS = Duration.ofHours(1).toMillis();

    private final long seed;
    private final int vehicleIndex;
    private final long epochMillis;
    private final long slotMillis;
    private final double probability;

    /**
     * @param seed the fleet seed mixed with a constant for the kind of event
     * @param perHour events per hour, at least 0
     */
    EventSlots(long seed, int vehicleIndex, long epochMillis, double perHour) {
        if (!(perHour >= 0) || Double.isInfinite(perHour)) {
            throw new IllegalArgumentException("An event rate must be finite and at least 0, got " + perHour);
        }
        this.seed = seed;
        this.vehicleIndex = vehicleIndex;
        this.epochMillis = epochMillis;
        this.slotMillis = HOUR_MILLIS / Math.max(1, (long) Math.ceil(perHour));
        this.probability = perHour * slotMillis / HOUR_MILLIS;
    }

    long slotMillis() {
        return slotMillis;
    }

    long slotOf(long millis) {
        return Math.floorDiv(millis - epochMillis, slotMillis);
    }

    long slotStart(long slot) {
        return epochMillis + slot * slotMillis;
    }

    /** The generator that details the slot's event, or empty when the slot has none. */
    Optional<SplittableRandom> event(long slot) {
        if (probability == 0) {
            return Optional.empty();
        }
        SplittableRandom random = new SplittableRandom(SeedMixer.mix(seed, vehicleIndex, slot));
        return random.nextDouble() < probability ? Optional.of(random) : Optional.empty();
    }
}
