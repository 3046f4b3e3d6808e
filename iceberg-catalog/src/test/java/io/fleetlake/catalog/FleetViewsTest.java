package io.fleetlake.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.PlaceColumns;
import io.fleetlake.model.Tables;
import java.io.IOException;
import java.util.Map;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.View;
import org.junit.jupiter.api.Test;

class FleetViewsTest {
    private static final TableIdentifier VIEW = FleetViews.POSITIONS_WITH_PLACES.identifier();

    @Test
    void positionsWithPlacesLeftJoinsTheTwoTablesOnTheirKey() {
        ViewDefinition view = FleetViews.POSITIONS_WITH_PLACES;

        assertThat(view.identifier()).isEqualTo(TableIdentifier.of(Tables.NAMESPACE, Tables.POSITIONS_WITH_PLACES));
        assertThat(view.trinoSql())
                .startsWith("SELECT p.vehicle_id, p.event_time, p.latitude, p.longitude,")
                .contains(" FROM positions AS p LEFT JOIN position_places AS pl"
                        + " ON pl.vehicle_id = p.vehicle_id AND pl.event_time = p.event_time")
                .contains("pl.distance_km AS place_distance_km");
        assertThat(view.trinoCatalog()).isEqualTo("iceberg");
        // Trino compares the query's columns with the view's schema by position: same names, same order.
        assertThat(view.schema().columns())
                .extracting(Types.NestedField::name)
                .containsExactly(
                        "vehicle_id",
                        "event_time",
                        "latitude",
                        "longitude",
                        "speed_kmh",
                        "heading_deg",
                        "route_id",
                        "status",
                        PlaceColumns.PLACE_NAME,
                        PlaceColumns.MUNICIPALITY,
                        PlaceColumns.PROVINCE,
                        PlaceColumns.REGION,
                        PlaceColumns.COUNTRY_CODE,
                        PlaceColumns.COUNTRY,
                        PlaceColumns.PLACE_DISTANCE_KM);
        for (Types.NestedField column : view.schema().columns()) {
            String selected =
                    column.name().equals(PlaceColumns.PLACE_DISTANCE_KM) ? "AS " + column.name() : "." + column.name();
            assertThat(view.trinoSql()).as(column.name()).contains(selected);
        }
    }

    @Test
    void createsTheViewOnceAndReplacesAnOutdatedOne() throws IOException {
        try (InMemoryCatalog catalog = catalog()) {
            FleetTables.ensure(catalog);
            FleetViews.ensure(catalog);
            View created = catalog.loadView(VIEW);
            assertThat(created.currentVersion().defaultCatalog()).isEqualTo("iceberg");
            assertThat(created.currentVersion().defaultNamespace()).isEqualTo(FleetTables.NAMESPACE);
            assertThat(created.properties()).containsKey("comment");

            FleetViews.ensure(catalog);
            assertThat(catalog.loadView(VIEW).versions())
                    .as("an up-to-date view is not written")
                    .hasSize(1);

            catalog.loadView(VIEW)
                    .replaceVersion()
                    .withSchema(FleetViews.POSITIONS_WITH_PLACES.schema())
                    .withQuery("trino", "SELECT 1")
                    .withDefaultNamespace(FleetTables.NAMESPACE)
                    .withDefaultCatalog("iceberg")
                    .commit();
            assertThat(FleetViews.upToDate(catalog.loadView(VIEW), FleetViews.POSITIONS_WITH_PLACES))
                    .isFalse();

            FleetViews.ensure(catalog);
            View replaced = catalog.loadView(VIEW);
            assertThat(FleetViews.upToDate(replaced, FleetViews.POSITIONS_WITH_PLACES))
                    .isTrue();
            // Iceberg reuses a version equal to an earlier one instead of adding it again.
            assertThat(replaced.currentVersion().versionId())
                    .isEqualTo(created.currentVersion().versionId());
        }
    }

    private static InMemoryCatalog catalog() {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.initialize("test", Map.of());
        return catalog;
    }
}
