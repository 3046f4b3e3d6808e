package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The deviations, GPS glitches and garage outages of one vehicle: seeded ones, drawn per time slot (see
 * {@link EventSlots}), plus those scheduled explicitly (tests, operators). Thread-safe.
 */
final class VehicleIncidents {
    static final Duration MINIMUM_DEVIATION = Duration.ofMinutes(5);
    static final Duration MAXIMUM_DEVIATION = Duration.ofMinutes(8);
    static final double MINIMUM_DEVIATION_METERS = 300;
    static final double MAXIMUM_DEVIATION_METERS = 800;
    /** A seeded detour is only taken on a stretch without halts whose course stays within this angle. */
    static final double MAXIMUM_DEVIATION_TURN_DEGREES = 30;

    static final double MINIMUM_GLITCH_METERS = 20_000;
    static final double MAXIMUM_GLITCH_METERS = 80_000;

    private static final long DEVIATION_SALT = 0x44455649_4154494FL;
    private static final long GLITCH_SALT = 0x474C4954_43484553L;
    private static final long GARAGE_SALT = 0x47415241_47455321L;
    /** How far a seeded detour moves forward, at most to the end of its slot, to find a stretch without halts. */
    private static final long DEVIATION_SEARCH_STEP_MILLIS =
            Duration.ofSeconds(15).toMillis();

    private static final int CACHED_DEVIATION_SLOTS = 4;

    private final VehicleTimeline timeline;
    private final EventSlots deviationSlots;
    private final EventSlots glitchSlots;
    private final EventSlots garageSlots;
    private final long garageMillis;
    private final List<Deviation> scheduledDeviations = new ArrayList<>();
    private final List<GarageOutage> scheduledOutages = new ArrayList<>();
    /** Finding a seeded detour searches the timeline: remember the last few slots. */
    private final Map<Long, Optional<Deviation>> deviationCache = new LinkedHashMap<>(8, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Optional<Deviation>> eldest) {
            return size() > CACHED_DEVIATION_SLOTS;
        }
    };

    VehicleIncidents(VehicleTimeline timeline, FleetPatterns patterns, long seed, int vehicleIndex, long epochMillis) {
        this.timeline = requireNonNull(timeline, "timeline is null");
        requireNonNull(patterns, "patterns is null");
        this.deviationSlots =
                new EventSlots(seed ^ DEVIATION_SALT, vehicleIndex, epochMillis, patterns.deviationsPerHour());
        this.glitchSlots = new EventSlots(seed ^ GLITCH_SALT, vehicleIndex, epochMillis, patterns.glitchesPerHour());
        this.garageSlots =
                new EventSlots(seed ^ GARAGE_SALT, vehicleIndex, epochMillis, patterns.garageOutagesPerHour());
        this.garageMillis = patterns.garageDuration().toMillis();
    }

    /** The deviations under way at a time, usually none. */
    synchronized List<Deviation> deviationsAt(long millis) {
        List<Deviation> active = new ArrayList<>(1);
        seededDeviation(deviationSlots.slotOf(millis))
                .filter(deviation -> deviation.covers(millis))
                .ifPresent(active::add);
        for (Deviation deviation : scheduledDeviations) {
            if (deviation.covers(millis)) {
                active.add(deviation);
            }
        }
        return active;
    }

    /** A garage outage the device is in at a time. */
    synchronized Optional<GarageOutage> outageAt(long millis) {
        Optional<GarageOutage> seeded =
                seededOutage(garageSlots.slotOf(millis)).filter(outage -> outage.contains(millis));
        if (seeded.isPresent()) {
            return seeded;
        }
        return scheduledOutages.stream()
                .filter(outage -> outage.contains(millis))
                .findFirst();
    }

    /** The garage outages that end after {@code fromMillis} and at or before {@code toMillis}. */
    synchronized List<GarageOutage> outagesEndingIn(long fromMillis, long toMillis) {
        List<GarageOutage> ending = new ArrayList<>();
        for (long slot = garageSlots.slotOf(fromMillis); slot <= garageSlots.slotOf(toMillis); slot++) {
            seededOutage(slot)
                    .filter(outage -> endsIn(outage, fromMillis, toMillis))
                    .ifPresent(ending::add);
        }
        for (GarageOutage outage : scheduledOutages) {
            if (endsIn(outage, fromMillis, toMillis)) {
                ending.add(outage);
            }
        }
        return ending;
    }

    /** The first GPS glitch after {@code fromMillis} and at or before {@code toMillis}. */
    Optional<Glitch> glitchIn(long fromMillis, long toMillis) {
        for (long slot = glitchSlots.slotOf(fromMillis); slot <= glitchSlots.slotOf(toMillis); slot++) {
            Optional<Glitch> glitch = seededGlitch(slot)
                    .filter(candidate -> candidate.millis() > fromMillis && candidate.millis() <= toMillis);
            if (glitch.isPresent()) {
                return glitch;
            }
        }
        return Optional.empty();
    }

    synchronized void schedule(Deviation deviation) {
        scheduledDeviations.add(requireNonNull(deviation, "deviation is null"));
    }

    synchronized void schedule(GarageOutage outage) {
        scheduledOutages.add(requireNonNull(outage, "outage is null"));
    }

    private Optional<Deviation> seededDeviation(long slot) {
        return deviationCache.computeIfAbsent(slot, this::findDeviation);
    }

    /**
     * The slot's detour: its length, offset and side are drawn first; it starts at a drawn time, or the first time
     * after it (in steps of 15 s) from which the vehicle drives steadily long enough, and is dropped when there is none
     * in the slot. Detours therefore never cover a stop or a halt, and never span two routes.
     */
    private Optional<Deviation> findDeviation(long slot) {
        Optional<SplittableRandom> event = deviationSlots.event(slot);
        if (event.isEmpty()) {
            return Optional.empty();
        }
        SplittableRandom random = event.get();
        long length = random.nextLong(MINIMUM_DEVIATION.toMillis(), MAXIMUM_DEVIATION.toMillis() + 1);
        double offset =
                MINIMUM_DEVIATION_METERS + random.nextDouble() * (MAXIMUM_DEVIATION_METERS - MINIMUM_DEVIATION_METERS);
        double side = random.nextBoolean() ? 90 : -90;
        long slotStart = deviationSlots.slotStart(slot);
        // At most 6 deviations per hour: a slot lasts at least 10 minutes and holds the longest detour.
        long latestStart = slotStart + deviationSlots.slotMillis() - length;
        for (long start = random.nextLong(slotStart, latestStart + 1);
                start <= latestStart;
                start += DEVIATION_SEARCH_STEP_MILLIS) {
            if (timeline.drivesSteadily(start, start + length, MAXIMUM_DEVIATION_TURN_DEGREES)) {
                double heading = timeline.stateAt(start).headingDegrees();
                return Optional.of(new Deviation(
                        Instant.ofEpochMilli(start), Instant.ofEpochMilli(start + length), heading + side, offset));
            }
        }
        return Optional.empty();
    }

    private Optional<GarageOutage> seededOutage(long slot) {
        return garageSlots.event(slot).map(random -> {
            long slotStart = garageSlots.slotStart(slot);
            long start = random.nextLong(slotStart, slotStart + garageSlots.slotMillis() - garageMillis + 1);
            return new GarageOutage(Instant.ofEpochMilli(start), Instant.ofEpochMilli(start + garageMillis));
        });
    }

    private Optional<Glitch> seededGlitch(long slot) {
        return glitchSlots.event(slot).map(random -> {
            long slotStart = glitchSlots.slotStart(slot);
            long millis = random.nextLong(slotStart, slotStart + glitchSlots.slotMillis());
            double distance =
                    MINIMUM_GLITCH_METERS + random.nextDouble() * (MAXIMUM_GLITCH_METERS - MINIMUM_GLITCH_METERS);
            return new Glitch(millis, random.nextDouble() * 360, distance);
        });
    }

    private static boolean endsIn(GarageOutage outage, long fromMillis, long toMillis) {
        long end = outage.end().toEpochMilli();
        return end > fromMillis && end <= toMillis;
    }

    /**
     * A GPS glitch: the fix taken at or after {@code millis} is reported far from where the vehicle is.
     *
     * @param bearingDegrees preferred direction of the jump
     * @param distanceMeters how far the fix jumps
     */
    record Glitch(long millis, double bearingDegrees, double distanceMeters) {}
}
