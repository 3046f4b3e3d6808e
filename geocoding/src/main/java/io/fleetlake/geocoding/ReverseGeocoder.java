package io.fleetlake.geocoding;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.geo.GreatCircle;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;
import java.util.Optional;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.index.strtree.ItemBoundable;
import org.locationtech.jts.index.strtree.ItemDistance;
import org.locationtech.jts.index.strtree.STRtree;

/**
 * Finds the nearest place of a {@link Gazetteer} to a point, by great-circle distance, with a JTS {@link STRtree}
 * (a packed R-tree): a lookup visits a few dozen nodes instead of every place.
 *
 * <p><b>Why the answer is exact.</b> The tree's branch-and-bound search prunes a node when the distance from the point
 * to the node's envelope exceeds the best distance found so far, so that envelope distance must never exceed the true
 * distance to a place inside it. Places are indexed in a plane {@code x = longitude * cos(50°), y = latitude} and
 * distances are measured in degrees of arc. For two points whose connecting great circle stays within 50° of the
 * equator, the arc length is at least the plane distance (the sphere's metric {@code dφ² + cos²φ dλ²} is at least
 * {@code dφ² + cos²50° dλ²} there). Every place lies below 49° ({@link #MAXIMUM_PLACE_LATITUDE}, checked at
 * construction), so whenever the true nearest place is within the maximum distance the search finds it; when no place
 * is that close the answer is empty either way.
 *
 * <p>Immutable and safe to share between threads. Serialisable when built over the bundled gazetteer: only the maximum
 * distance is written, and the receiving JVM rebuilds the index from its own copy of the jar (Spark ships it to tasks).
 */
public final class ReverseGeocoder implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The highest latitude of a place the index accepts; see the class comment. */
    public static final double MAXIMUM_PLACE_LATITUDE = 49;

    private static final double LONGITUDE_SCALE = Math.cos(Math.toRadians(50));

    private final transient Gazetteer gazetteer;
    private final transient boolean bundled;
    private final transient STRtree index;
    private final double maxDistanceKm;

    private ReverseGeocoder(Gazetteer gazetteer, boolean bundled, double maxDistanceKm) {
        this.gazetteer = requireNonNull(gazetteer, "gazetteer is null");
        this.bundled = bundled;
        if (!(maxDistanceKm > 0) || Double.isInfinite(maxDistanceKm)) {
            throw new IllegalArgumentException(
                    "maxDistanceKm is " + maxDistanceKm + "; it must be a finite distance > 0");
        }
        this.maxDistanceKm = maxDistanceKm;
        STRtree tree = new STRtree();
        for (Place place : gazetteer.places()) {
            if (Math.abs(place.latitude()) > MAXIMUM_PLACE_LATITUDE) {
                throw new IllegalArgumentException("Place " + place.name() + " lies at latitude " + place.latitude()
                        + ", beyond the " + MAXIMUM_PLACE_LATITUDE + "° the index is exact for");
            }
            tree.insert(pointEnvelope(place.latitude(), place.longitude()), place);
        }
        tree.build();
        this.index = tree;
    }

    /** Over the gazetteer bundled in the jar; it takes about a tenth of a second to load. */
    public static ReverseGeocoder bundled(double maxDistanceKm) {
        return new ReverseGeocoder(Gazetteer.bundled(), true, maxDistanceKm);
    }

    /** Over any gazetteer; such a geocoder is not serialisable. */
    public static ReverseGeocoder of(Gazetteer gazetteer, double maxDistanceKm) {
        return new ReverseGeocoder(gazetteer, false, maxDistanceKm);
    }

    /**
     * The nearest place and its distance, or empty when no place is within the maximum distance (a point at sea, or
     * beyond the region the gazetteer covers).
     *
     * @throws IllegalArgumentException when the coordinates are not a point on Earth
     */
    public Optional<PlaceMatch> nearest(double latitude, double longitude) {
        if (!(latitude >= -90 && latitude <= 90) || !(longitude >= -180 && longitude <= 180)) {
            throw new IllegalArgumentException("Invalid coordinates " + latitude + ", " + longitude
                    + ": latitude must be in [-90, 90] and longitude in [-180, 180]");
        }
        Point query = new Point(latitude, longitude);
        Place place = (Place) index.nearestNeighbour(pointEnvelope(latitude, longitude), query, ARC_DEGREES);
        double distanceKm = GreatCircle.distanceKm(latitude, longitude, place.latitude(), place.longitude());
        return distanceKm <= maxDistanceKm ? Optional.of(new PlaceMatch(place, distanceKm)) : Optional.empty();
    }

    public Gazetteer gazetteer() {
        return gazetteer;
    }

    public double maxDistanceKm() {
        return maxDistanceKm;
    }

    @Override
    public String toString() {
        return "ReverseGeocoder{" + gazetteer + ", max " + maxDistanceKm + " km}";
    }

    private static Envelope pointEnvelope(double latitude, double longitude) {
        double x = longitude * LONGITUDE_SCALE;
        return new Envelope(x, x, latitude, latitude);
    }

    /** Great-circle distance in degrees of arc, the unit of the plane's y axis. */
    private static final ItemDistance ARC_DEGREES = (ItemBoundable first, ItemBoundable second) -> {
        Point a = coordinates(first.getItem());
        Point b = coordinates(second.getItem());
        return GreatCircle.distanceKm(a.latitude(), a.longitude(), b.latitude(), b.longitude())
                / GreatCircle.KILOMETRES_PER_DEGREE;
    };

    private static Point coordinates(Object item) {
        if (item instanceof Place place) {
            return new Point(place.latitude(), place.longitude());
        }
        return (Point) item;
    }

    private record Point(double latitude, double longitude) {}

    @Serial
    private Object writeReplace() throws NotSerializableException {
        if (!bundled) {
            throw new NotSerializableException(
                    "Only a ReverseGeocoder over the bundled gazetteer is serialisable; this one has " + gazetteer);
        }
        return new SerializedForm(maxDistanceKm);
    }

    @Serial
    private void readObject(ObjectInputStream in) throws NotSerializableException {
        throw new NotSerializableException("A ReverseGeocoder is read through its serialised form");
    }

    /** What a bundled geocoder serialises to: the receiving JVM loads its own gazetteer. */
    private record SerializedForm(double maxDistanceKm) implements Serializable {
        @Serial
        private Object readResolve() {
            return ReverseGeocoder.bundled(maxDistanceKm);
        }
    }
}
