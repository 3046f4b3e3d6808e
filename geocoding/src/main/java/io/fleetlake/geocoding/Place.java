package io.fleetlake.geocoding;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * A populated place of the gazetteer with the administrative divisions it lies in.
 *
 * <p>The divisions follow GeoNames' first- and second-level divisions, mapped per country (see the module README):
 * in Spain the region is the autonomous community or city and the province the province; in Portugal the region and
 * the province are the district or autonomous region (Azores, Madeira) and the municipality the concelho.
 *
 * @param name the place's name, as GeoNames spells it
 * @param latitude WGS84 latitude in degrees
 * @param longitude WGS84 longitude in degrees
 * @param municipality the municipality, where the data names one (Portugal); empty elsewhere
 * @param province the province (Spain), district (Portugal) or the equivalent second-level division
 * @param region the first-level division: autonomous community or city, district or autonomous region
 * @param countryCode ISO 3166-1 alpha-2 code, for example {@code ES}
 * @param country the country's English name
 */
public record Place(
        String name,
        double latitude,
        double longitude,
        Optional<String> municipality,
        String province,
        String region,
        String countryCode,
        String country) {
    public Place {
        requireNonNull(name, "name is null");
        requireNonNull(municipality, "municipality is null");
        requireNonNull(province, "province is null");
        requireNonNull(region, "region is null");
        requireNonNull(countryCode, "countryCode is null");
        requireNonNull(country, "country is null");
        if (!(latitude >= -90 && latitude <= 90) || !(longitude >= -180 && longitude <= 180)) {
            throw new IllegalArgumentException(
                    "Place " + name + " has invalid coordinates " + latitude + ", " + longitude);
        }
    }
}
