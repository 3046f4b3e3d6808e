package io.fleetlake.geocoding.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.geocoding.Place;
import io.fleetlake.geocoding.build.GazetteerBuilder.RawPlace;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GazetteerBuilderTest {
    private static final Map<String, String> COUNTRIES = Map.of("ES", "Spain", "PT", "Portugal", "GI", "Gibraltar");

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            Provincia de Sevilla   | Sevilla
            Província de València  | València
            Province of Asturias   | Asturias
            Provincia da Coruña    | A Coruña
            Bizkaia                | Bizkaia
            Illes Balears          | Illes Balears
            """)
    void dropsTheProvincePrefix(String county, String province) {
        assertThat(GazetteerBuilder.provinceName(county)).isEqualTo(province);
    }

    @Test
    void portugueseDistrictsAreProvincesAndConcelhosMunicipalities() {
        RawPlace cascais = new RawPlace("Cascais", 38.697, -9.421, "PT", "Lisbon", Optional.of("Cascais"));

        Place place = GazetteerBuilder.map(cascais, List.of(cascais), COUNTRIES);

        assertThat(place)
                .isEqualTo(new Place(
                        "Cascais", 38.697, -9.421, Optional.of("Cascais"), "Lisbon", "Lisbon", "PT", "Portugal"));
    }

    @Test
    void aSpanishPlaceWithoutProvinceTakesItsNearestNeighboursOrItsRegion() {
        RawPlace almeria = new RawPlace("Almería", 36.838, -2.460, "ES", "Andalusia", Optional.empty());
        RawPlace huercal =
                new RawPlace("Huércal de Almería", 36.886, -2.437, "ES", "Andalusia", Optional.of("Almería"));
        RawPlace sevilla =
                new RawPlace("Sevilla", 37.383, -5.973, "ES", "Andalusia", Optional.of("Provincia de Sevilla"));
        RawPlace melilla = new RawPlace("Melilla", 35.294, -2.938, "ES", "Melilla", Optional.empty());
        List<RawPlace> all = List.of(almeria, huercal, sevilla, melilla);

        assertThat(GazetteerBuilder.map(almeria, all, COUNTRIES).province()).isEqualTo("Almería");
        assertThat(GazetteerBuilder.map(melilla, all, COUNTRIES).province()).isEqualTo("Melilla");
        assertThat(GazetteerBuilder.map(sevilla, all, COUNTRIES).province()).isEqualTo("Sevilla");
        assertThat(GazetteerBuilder.map(sevilla, all, COUNTRIES).municipality()).isEmpty();
    }

    @Test
    void aTerritoryWithoutDivisionsIsItsOwnRegion() {
        RawPlace gibraltar = new RawPlace("Gibraltar", 36.145, -5.353, "GI", "", Optional.empty());

        Place place = GazetteerBuilder.map(gibraltar, List.of(gibraltar), COUNTRIES);

        assertThat(place.region()).isEqualTo("Gibraltar");
        assertThat(place.province()).isEqualTo("Gibraltar");
    }
}
