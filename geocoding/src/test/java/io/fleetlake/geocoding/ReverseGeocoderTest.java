package io.fleetlake.geocoding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.model.geo.GreatCircle;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The bundled gazetteer and its index against places whose administrative divisions are known facts, and against a
 * plain scan of every place.
 */
class ReverseGeocoderTest {
    private static final double MAX_DISTANCE_KM = 30;
    private static final ReverseGeocoder GEOCODER = ReverseGeocoder.bundled(MAX_DISTANCE_KM);

    /** Landmarks: the expected names and divisions are geography, not read from the gazetteer. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            nullValues = "-",
            textBlock =
                    """
            Madrid, Puerta del Sol                 | 40.4169 |  -3.7035 | Sol                        | -             | Madrid        | Madrid           | ES | Spain
            Ceuta, Plaza de Africa                 | 35.8890 |  -5.3198 | Ceuta                      | -             | Ceuta         | Ceuta            | ES | Spain
            Melilla, Plaza de España               | 35.2923 |  -2.9381 | Melilla                    | -             | Melilla       | Melilla          | ES | Spain
            Palma, cathedral                       | 39.5676 |   2.6485 | Palma                      | -             | Illes Balears | Balearic Islands | ES | Spain
            Las Palmas de Gran Canaria, cathedral  | 28.1006 | -15.4152 | Las Palmas de Gran Canaria | -             | Las Palmas    | Canary Islands   | ES | Spain
            Ponta Delgada, Portas da Cidade        | 37.7394 | -25.6687 | Ponta Delgada              | -             | Azores        | Azores           | PT | Portugal
            Seville, cathedral                     | 37.3858 |  -5.9931 | Sevilla                    | -             | Sevilla       | Andalusia        | ES | Spain
            A Coruña, Plaza de María Pita          | 43.3713 |  -8.3960 | A Coruña                   | -             | A Coruña      | Galicia          | ES | Spain
            Porto, Avenida dos Aliados             | 41.1496 |  -8.6109 | Porto                      | -             | Porto         | Porto            | PT | Portugal
            Gibraltar, Main Street                 | 36.1408 |  -5.3536 | Gibraltar                  | -             | Gibraltar     | Gibraltar        | GI | Gibraltar
            """)
    void namesKnownPlaces(
            String landmark,
            double latitude,
            double longitude,
            String name,
            String municipality,
            String province,
            String region,
            String countryCode,
            String country) {
        Optional<PlaceMatch> match = GEOCODER.nearest(latitude, longitude);

        assertThat(match).as(landmark).hasValueSatisfying(found -> {
            assertThat(found.place().name()).isEqualTo(name);
            assertThat(found.place().municipality()).isEqualTo(Optional.ofNullable(municipality));
            assertThat(found.place().province()).isEqualTo(province);
            assertThat(found.place().region()).isEqualTo(region);
            assertThat(found.place().countryCode()).isEqualTo(countryCode);
            assertThat(found.place().country()).isEqualTo(country);
            assertThat(found.distanceKm()).isLessThan(2);
        });
    }

    /** Cities whose centre is split into GeoNames neighbourhoods: the municipality is the fact to check. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            Lisbon, Praça do Comércio   | 38.7075 |  -9.1364 | Lisbon  | Lisbon  | Lisbon
            Funchal, Sé cathedral       | 32.6478 | -16.9083 | Funchal | Madeira | Madeira
            """)
    void namesTheMunicipalityOfPortugueseCities(
            String landmark, double latitude, double longitude, String municipality, String province, String region) {
        assertThat(GEOCODER.nearest(latitude, longitude)).as(landmark).hasValueSatisfying(found -> {
            assertThat(found.place().municipality()).contains(municipality);
            assertThat(found.place().province()).isEqualTo(province);
            assertThat(found.place().region()).isEqualTo(region);
            assertThat(found.place().countryCode()).isEqualTo("PT");
            assertThat(found.distanceKm()).isLessThan(2);
        });
    }

    @Test
    void findsNoPlaceAtSea() {
        // The Atlantic between Lisbon and Madeira, some 300 km from any coast.
        assertThat(GEOCODER.nearest(38.5, -13.0)).isEmpty();
        // Between Ibiza and the mainland: Sant Antoni is 26 km away, within 30 km but not within 20.
        assertThat(GEOCODER.nearest(39.0, 1.0)).isPresent();
        assertThat(ReverseGeocoder.bundled(20).nearest(39.0, 1.0)).isEmpty();
    }

    @Test
    void coversEveryProvinceOfSpainAndEveryDistrictOfPortugal() {
        List<Place> places = GEOCODER.gazetteer().places();
        // 50 provinces plus the autonomous cities of Ceuta and Melilla.
        assertThat(places.stream()
                        .filter(place -> place.countryCode().equals("ES"))
                        .map(Place::province)
                        .distinct())
                .hasSize(52)
                .contains("Madrid", "Barcelona", "Araba / Álava", "Santa Cruz de Tenerife", "Ceuta", "Melilla");
        // 18 districts plus the autonomous regions of the Azores and Madeira.
        assertThat(places.stream()
                        .filter(place -> place.countryCode().equals("PT"))
                        .map(Place::province)
                        .distinct())
                .hasSize(20)
                .contains("Lisbon", "Faro", "Azores", "Madeira");
        assertThat(places)
                .allSatisfy(place -> assertThat(place.latitude()).isBetween(27.0, 45.0))
                .allSatisfy(place -> assertThat(place.longitude()).isBetween(-32.0, 5.0));
    }

    /** The index against the oracle of a plain scan over every place, at random points of the region's box. */
    @Test
    void agreesWithAScanOfEveryPlace() {
        Random random = new Random(18);
        List<Place> places = GEOCODER.gazetteer().places();
        for (int sample = 0; sample < 3_000; sample++) {
            double latitude = 27 + random.nextDouble() * 17.5;
            double longitude = -32 + random.nextDouble() * 37;
            Place nearest = places.stream()
                    .min(Comparator.comparingDouble(place -> distanceKm(place, latitude, longitude)))
                    .orElseThrow();
            double nearestKm = distanceKm(nearest, latitude, longitude);

            Optional<PlaceMatch> match = GEOCODER.nearest(latitude, longitude);

            if (nearestKm <= MAX_DISTANCE_KM) {
                assertThat(match).as("%s, %s", latitude, longitude).hasValueSatisfying(found -> assertThat(
                                found.distanceKm())
                        .isCloseTo(nearestKm, org.assertj.core.data.Offset.offset(1e-9)));
            } else {
                assertThat(match).as("%s, %s", latitude, longitude).isEmpty();
            }
        }
    }

    @Test
    void refusesCoordinatesThatAreNotOnEarth() {
        assertThatThrownBy(() -> GEOCODER.nearest(91, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("latitude must be in [-90, 90]");
        assertThatThrownBy(() -> GEOCODER.nearest(Double.NaN, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theBundledGeocoderTravelsAsItsSettingsOnly() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(GEOCODER);
        }
        assertThat(bytes.size()).as("serialised size in bytes").isLessThan(1_000);
        ReverseGeocoder copy;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            copy = (ReverseGeocoder) in.readObject();
        }
        assertThat(copy.maxDistanceKm()).isEqualTo(MAX_DISTANCE_KM);
        assertThat(copy.nearest(35.2923, -2.9381))
                .map(match -> match.place().name())
                .contains("Melilla");

        ReverseGeocoder custom = ReverseGeocoder.of(GEOCODER.gazetteer(), 10);
        assertThatThrownBy(() -> new ObjectOutputStream(new ByteArrayOutputStream()).writeObject(custom))
                .isInstanceOf(NotSerializableException.class)
                .hasMessageContaining("bundled gazetteer");
    }

    @Test
    void refusesPlacesBeyondTheLatitudeTheIndexIsExactFor() {
        Place oslo = new Place("Oslo", 59.91, 10.75, Optional.empty(), "Oslo", "Oslo", "NO", "Norway");
        Gazetteer north = new Gazetteer("test", "test", "test", List.of(oslo));
        assertThatThrownBy(() -> ReverseGeocoder.of(north, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Oslo lies at latitude 59.91");
    }

    private static double distanceKm(Place place, double latitude, double longitude) {
        return GreatCircle.distanceKm(latitude, longitude, place.latitude(), place.longitude());
    }
}
