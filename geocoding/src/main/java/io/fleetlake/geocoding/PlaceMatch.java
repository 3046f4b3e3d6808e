package io.fleetlake.geocoding;

import static java.util.Objects.requireNonNull;

/**
 * The nearest place to a point and how far it is.
 *
 * @param place the nearest place of the gazetteer
 * @param distanceKm great-circle distance from the point to the place, in kilometres
 */
public record PlaceMatch(Place place, double distanceKm) {
    public PlaceMatch {
        requireNonNull(place, "place is null");
        if (!(distanceKm >= 0)) {
            throw new IllegalArgumentException("distanceKm is " + distanceKm + "; it must be >= 0");
        }
    }
}
