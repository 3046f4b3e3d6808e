package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import io.fleetlake.simulator.geo.GeoPoint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A drivable connection between two nearby cities. The road runs in straight great-circle lines from the origin through
 * the via points to the destination; via points bend it around bays and estuaries that a straight line would cross.
 *
 * @param from origin
 * @param to destination
 * @param via intermediate corners, in driving order
 */
public record Road(City from, City to, List<GeoPoint> via) {
    public Road {
        requireNonNull(from, "from is null");
        requireNonNull(to, "to is null");
        requireNonNull(via, "via is null");
        via = List.copyOf(via);
        if (from.equals(to)) {
            throw new IllegalArgumentException("A road must connect two different cities, got " + from.name());
        }
    }

    /** The same road driven in the opposite direction. */
    public Road reversed() {
        List<GeoPoint> reversedVia = new ArrayList<>(via);
        Collections.reverse(reversedVia);
        return new Road(to, from, reversedVia);
    }

    /** The corners of the road: origin, via points, destination. */
    public List<GeoPoint> corners() {
        List<GeoPoint> corners = new ArrayList<>(via.size() + 2);
        corners.add(from.location());
        corners.addAll(via);
        corners.add(to.location());
        return List.copyOf(corners);
    }

    public double lengthMeters() {
        List<GeoPoint> corners = corners();
        double length = 0;
        for (int i = 1; i < corners.size(); i++) {
            length += corners.get(i - 1).distanceMeters(corners.get(i));
        }
        return length;
    }
}
