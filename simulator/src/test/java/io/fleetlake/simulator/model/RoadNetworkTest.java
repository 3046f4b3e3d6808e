package io.fleetlake.simulator.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.simulator.geo.GeoPoint;
import io.fleetlake.simulator.geo.Regions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class RoadNetworkTest {
    private final RoadNetwork iberia = RoadNetwork.iberia();

    @Test
    void iberiaHasAboutFortyCitiesEachWithRoads() {
        assertThat(iberia.cities()).hasSizeBetween(30, 45);
        assertThat(iberia.cities()).extracting(City::name).contains("Madrid", "Lisboa", "Porto", "Barcelona");
        for (City city : iberia.cities()) {
            assertThat(Regions.IBERIA_MAINLAND.contains(city.location()))
                    .as(city.name())
                    .isTrue();
            assertThat(iberia.roadsFrom(city)).as(city.name()).isNotEmpty();
            assertThat(city.elevationMeters()).as(city.name()).isBetween(0.0, 1_000.0);
        }
    }

    @Test
    void roadsConnectNearbyCitiesOverLand() {
        for (Road road : iberia.roads()) {
            String name = road.from().name() + " - " + road.to().name();
            assertThat(road.lengthMeters()).as(name).isBetween(40_000.0, 280_000.0);
            List<GeoPoint> corners = road.corners();
            for (int i = 1; i < corners.size(); i++) {
                for (int step = 0; step <= 100; step++) {
                    GeoPoint point = corners.get(i - 1).interpolate(corners.get(i), step / 100.0);
                    assertThat(Regions.IBERIA_MAINLAND.contains(point))
                            .as(name + " at " + point)
                            .isTrue();
                }
            }
        }
    }

    @Test
    void roadsFromACityStartThere() {
        City santander = iberia.city("Santander");

        assertThat(iberia.roadsFrom(santander))
                .allSatisfy(road -> assertThat(road.from()).isEqualTo(santander));
        assertThat(iberia.roadsFrom(santander))
                .extracting(road -> road.to().name())
                .containsExactlyInAnyOrder("Oviedo", "Burgos", "Bilbao");
    }

    @Test
    void reversedRoadRunsBackThroughTheSameCorners() {
        Road road = iberia.roadsFrom(iberia.city("Oviedo")).stream()
                .filter(candidate -> candidate.to().name().equals("Santander"))
                .findFirst()
                .orElseThrow();
        List<GeoPoint> backwards = new ArrayList<>(road.corners());
        Collections.reverse(backwards);

        assertThat(road.via()).hasSize(2);
        assertThat(road.reversed().from()).isEqualTo(road.to());
        assertThat(road.reversed().corners()).containsExactlyElementsOf(backwards);
    }

    @Test
    void rejectsInconsistentNetworks() {
        City a = new City("A", new GeoPoint(40, -3), 600);
        City b = new City("B", new GeoPoint(40.5, -3), 600);
        City c = new City("C", new GeoPoint(41, -3), 600);
        City stranger = new City("D", new GeoPoint(41, -4), 600);

        assertThatThrownBy(() -> new RoadNetwork(List.of(a, b, c), List.of(new Road(a, b, List.of()))))
                .hasMessageContaining("City C cannot be reached");
        assertThatThrownBy(() ->
                        new RoadNetwork(List.of(a, b), List.of(new Road(a, b, List.of()), new Road(b, a, List.of()))))
                .hasMessageContaining("listed twice");
        assertThatThrownBy(() -> new RoadNetwork(List.of(a, b), List.of(new Road(a, stranger, List.of()))))
                .hasMessageContaining("D, which is not one of the network's cities");
        assertThatThrownBy(() -> iberia.city("Atlantis")).hasMessageContaining("No city named Atlantis");
    }
}
