package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Position;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The device on board one vehicle: takes a fix whenever asked and says which messages it sends then. Created by
 * {@link FleetModel#device}; the model decides where and when incidents happen, the device only keeps track of what it
 * has sent. Not thread-safe: one publishing loop owns it.
 *
 * <ul>
 *   <li>Normally it sends the fix it just took.
 *   <li>After a GPS glitch, that one fix lands tens of kilometres away; the next fix is normal again.
 *   <li>During a garage outage it sends nothing. It keeps a fix every {@link FleetPatterns#garageFixInterval()} in a
 *       buffer instead, and at its first fix after the outage sends the whole buffer, oldest first, before the new fix.
 *       Only fixes taken since the device was switched on are buffered.
 * </ul>
 */
public final class Device {
    private final FleetModel model;
    private final Vehicle vehicle;
    private final long poweredOnMillis;
    private final long bufferIntervalMillis;
    private long previousFixMillis;
    private long lastOnlineMillis;

    Device(FleetModel model, Vehicle vehicle, Instant poweredOn) {
        this.model = requireNonNull(model, "model is null");
        this.vehicle = requireNonNull(vehicle, "vehicle is null");
        this.poweredOnMillis = poweredOn.toEpochMilli();
        this.bufferIntervalMillis = model.patterns().garageFixInterval().toMillis();
        this.previousFixMillis = poweredOnMillis;
        this.lastOnlineMillis = poweredOnMillis;
    }

    /**
     * Takes a fix and returns the messages the device sends now, in event-time order: none while it is offline,
     * otherwise what it buffered during the outages that ended since it was last online, then the new fix.
     *
     * @param time when the fix is taken; not before the previous fix or the time the device was switched on
     */
    public List<Position> fix(Instant time) {
        long millis = time.toEpochMilli();
        if (millis < previousFixMillis) {
            throw new IllegalArgumentException("The device of " + vehicle.vehicleId() + " took a fix at "
                    + Instant.ofEpochMilli(previousFixMillis) + " and cannot take one earlier, at " + time);
        }
        long previous = previousFixMillis;
        previousFixMillis = millis;
        if (model.outageAt(vehicle, millis).isPresent()) {
            return List.of();
        }
        List<Position> messages = new ArrayList<>();
        for (long buffered : bufferedFixTimes(model.outagesEndingIn(vehicle, lastOnlineMillis, millis))) {
            messages.add(model.position(vehicle, Instant.ofEpochMilli(buffered)));
        }
        lastOnlineMillis = millis;
        messages.add(model.liveFix(vehicle, previous, millis));
        return messages;
    }

    /**
     * The times of the buffered fixes: one every buffer interval from the start of each spell offline (overlapping
     * outages count as one spell), not before the device was switched on.
     */
    private List<Long> bufferedFixTimes(List<GarageOutage> outages) {
        List<GarageOutage> ordered = new ArrayList<>(outages);
        ordered.sort(Comparator.comparing(GarageOutage::start));
        List<Long> times = new ArrayList<>();
        int index = 0;
        while (index < ordered.size()) {
            long start = ordered.get(index).start().toEpochMilli();
            long end = ordered.get(index).end().toEpochMilli();
            for (index++; index < ordered.size() && ordered.get(index).start().toEpochMilli() <= end; index++) {
                end = Math.max(end, ordered.get(index).end().toEpochMilli());
            }
            long first = start >= poweredOnMillis
                    ? start
                    : start
                            + (poweredOnMillis - start + bufferIntervalMillis - 1)
                                    / bufferIntervalMillis
                                    * bufferIntervalMillis;
            for (long time = first; time < end; time += bufferIntervalMillis) {
                times.add(time);
            }
        }
        return times;
    }
}
