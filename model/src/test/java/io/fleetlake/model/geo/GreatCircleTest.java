package io.fleetlake.model.geo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GreatCircleTest {
    @ParameterizedTest(name = "{0}: {5} km")
    @CsvSource({
        // Published great-circle distances between city centres, to the kilometre.
        "Madrid to Barcelona, 40.4168, -3.7038, 41.3874, 2.1686, 505, 1",
        "London to Paris, 51.5074, -0.1278, 48.8566, 2.3522, 344, 1",
        "one degree of latitude, 40, -3, 41, -3, 111.195, 0.001",
        "one degree of longitude on the equator, 0, 10, 0, 11, 111.195, 0.001",
        "one degree of longitude at 60 degrees north is half as long, 60, 0, 60, 1, 55.597, 0.001",
        "antipodes are half the circumference apart, 0, 0, 0, 180, 20015.114, 0.001",
        "pole to pole, 90, 0, -90, 0, 20015.114, 0.001",
        "across the antimeridian, 0, 179.5, 0, -179.5, 111.195, 0.001",
        "same point, 36.1408, -5.3536, 36.1408, -5.3536, 0, 0",
    })
    void distance(
            String name,
            double fromLatitude,
            double fromLongitude,
            double toLatitude,
            double toLongitude,
            double expectedKm,
            double toleranceKm) {
        assertThat(GreatCircle.distanceKm(fromLatitude, fromLongitude, toLatitude, toLongitude))
                .isCloseTo(expectedKm, within(toleranceKm));
        assertThat(GreatCircle.distanceKm(toLatitude, toLongitude, fromLatitude, fromLongitude))
                .as("the distance does not depend on the direction")
                .isCloseTo(expectedKm, within(toleranceKm));
    }
}
