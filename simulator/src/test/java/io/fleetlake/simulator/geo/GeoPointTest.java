package io.fleetlake.simulator.geo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class GeoPointTest {
    private static final GeoPoint MADRID = new GeoPoint(40.4168, -3.7038);
    private static final GeoPoint BARCELONA = new GeoPoint(41.3874, 2.1686);

    @Test
    void distanceBetweenMadridAndBarcelona() {
        // Published great-circle distance between the two city centres: about 505 km.
        assertThat(MADRID.distanceMeters(BARCELONA)).isCloseTo(505_000, within(2_000.0));
        assertThat(MADRID.distanceMeters(MADRID)).isZero();
    }

    @Test
    void bearingsPointToTheCompassDirections() {
        GeoPoint origin = new GeoPoint(40, -3);

        assertThat(origin.bearingDegrees(new GeoPoint(41, -3))).isCloseTo(0, within(1e-9));
        assertThat(origin.bearingDegrees(new GeoPoint(39, -3))).isCloseTo(180, within(1e-9));
        assertThat(origin.bearingDegrees(new GeoPoint(40, -2))).isCloseTo(90, within(0.5));
        assertThat(origin.bearingDegrees(new GeoPoint(40, -4))).isCloseTo(270, within(0.5));
        assertThat(MADRID.bearingDegrees(BARCELONA)).isBetween(70.0, 80.0);
    }

    @Test
    void interpolationStaysOnTheGreatCircle() {
        GeoPoint quarter = MADRID.interpolate(BARCELONA, 0.25);
        double total = MADRID.distanceMeters(BARCELONA);

        assertThat(MADRID.distanceMeters(quarter)).isCloseTo(total / 4, within(0.01));
        assertThat(quarter.distanceMeters(BARCELONA)).isCloseTo(total * 3 / 4, within(0.01));
        assertThat(MADRID.interpolate(BARCELONA, 0).distanceMeters(MADRID)).isLessThan(1e-6);
        assertThat(MADRID.interpolate(BARCELONA, 1).distanceMeters(BARCELONA)).isLessThan(1e-6);
        assertThatThrownBy(() -> MADRID.interpolate(BARCELONA, 1.5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void offsetTravelsTheDistanceInTheDirection() {
        GeoPoint moved = MADRID.offset(45, 1_000);

        assertThat(MADRID.distanceMeters(moved)).isCloseTo(1_000, within(1e-6));
        assertThat(MADRID.bearingDegrees(moved)).isCloseTo(45, within(1e-6));
        assertThat(MADRID.offset(45, -1_000).distanceMeters(MADRID.offset(225, 1_000)))
                .isLessThan(1e-6);
    }

    @Test
    void headingDifferenceWrapsAroundNorth() {
        assertThat(GeoPoint.headingDifference(350, 10)).isCloseTo(20, within(1e-9));
        assertThat(GeoPoint.headingDifference(10, 350)).isCloseTo(20, within(1e-9));
        assertThat(GeoPoint.headingDifference(0, 180)).isCloseTo(180, within(1e-9));
        assertThat(GeoPoint.normalizeDegrees(-90)).isCloseTo(270, within(1e-9));
    }

    @Test
    void rejectsCoordinatesOutsideTheGlobe() {
        assertThatThrownBy(() -> new GeoPoint(91, 0)).hasMessageContaining("Latitude");
        assertThatThrownBy(() -> new GeoPoint(0, Double.NaN)).hasMessageContaining("Longitude");
    }
}
