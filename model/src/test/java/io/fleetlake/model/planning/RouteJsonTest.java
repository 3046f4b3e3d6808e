package io.fleetlake.model.planning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RouteJsonTest {
    private static final PlannedRoute ROUTE = new PlannedRoute(
            "R-1",
            "VH-0001",
            Instant.parse("2026-11-29T06:00:00Z"),
            List.of(new PlannedStop("S-1", "Mercado Central", 39.4736, -0.3790)),
            List.of(new RoutePoint(39.47, -0.38), new RoutePoint(39.48, -0.37)));

    @Test
    void roundTripsOneAndAll() {
        assertThat(RouteJson.read(RouteJson.write(ROUTE))).isEqualTo(ROUTE);
        assertThat(RouteJson.readAll(RouteJson.writeAll(List.of(ROUTE, ROUTE)))).containsExactly(ROUTE, ROUTE);
    }

    @Test
    void pathIsAGeoJsonLineStringOfLongitudeLatitude() {
        assertThat(RouteJson.write(ROUTE))
                .contains("\"path\":{\"type\":\"LineString\",\"coordinates\":[[-0.38,39.47],[-0.37,39.48]]}");
    }

    @Test
    void incompleteRoutesAreRefusedNamingTheField() {
        assertThatThrownBy(() -> RouteJson.read("{\"route_id\":\"R\"}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stops");
        assertThatThrownBy(() -> RouteJson.read(RouteJson.write(ROUTE).replace("LineString", "Point")))
                .hasMessageContaining("GeoJSON LineString");
        assertThatThrownBy(() -> RouteJson.read("not json")).hasMessageContaining("Invalid JSON");
    }
}
