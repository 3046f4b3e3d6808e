package io.fleetlake.simulator.geo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RegionsTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "Madrid, 40.4168, -3.7038",
        "Lisboa (Tagus estuary shore), 38.7223, -9.1393",
        "A Coruna (tip of its peninsula), 43.3700, -8.3960",
        "Cadiz (island city), 36.5271, -6.2886",
        "Cabo de Sao Vicente, 37.0230, -8.9950",
        "Cap de Creus, 42.3190, 3.3150",
        "Tarifa, 36.0130, -5.6060",
        "Hondarribia (French border), 43.3680, -1.7930",
        "Cabo de Gata, 36.7220, -2.1930",
        "Porto, 41.1579, -8.6291"
    })
    void containsMainlandPlacesIncludingTheCoast(String place, double latitude, double longitude) {
        assertThat(Regions.IBERIA_MAINLAND.contains(new GeoPoint(latitude, longitude)))
                .as(place)
                .isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "Paris, 48.8566, 2.3522",
        "Bordeaux, 44.8378, -0.5792",
        "Palma de Mallorca, 39.5696, 2.6502",
        "Ceuta, 35.8894, -5.3213",
        "Tangier, 35.7595, -5.8340",
        "Ponta Delgada (Azores), 37.7412, -25.6756",
        "Atlantic 15 km off Porto, 41.1500, -8.8500",
        "Mediterranean 18 km off Valencia, 39.4700, -0.1200",
        "Bay of Biscay 18 km off Bilbao, 43.5500, -2.9000"
    })
    void excludesIslandsNeighboursAndSea(String place, double latitude, double longitude) {
        assertThat(Regions.IBERIA_MAINLAND.contains(new GeoPoint(latitude, longitude)))
                .as(place)
                .isFalse();
    }
}
