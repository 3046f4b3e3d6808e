package io.fleetlake.catalog;

import static java.util.Objects.requireNonNull;
import static org.apache.iceberg.types.Types.NestedField.optional;

import io.fleetlake.model.EnrichmentColumns;
import io.fleetlake.model.PlaceColumns;
import io.fleetlake.model.Tables;
import io.fleetlake.model.codec.PositionField;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.catalog.ViewCatalog;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.SQLViewRepresentation;
import org.apache.iceberg.view.View;
import org.apache.iceberg.view.ViewRepresentation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fleet's views, created by the catalog at start ({@link #ensure}) next to the tables, and brought up to their
 * definition when a release changes one.
 */
public final class FleetViews {
    /**
     * The Trino catalog name the fleet's Trino configurations give the Iceberg connector ({@code
     * etc/catalog/iceberg.properties} of the trino module and of the compose deployment).
     */
    public static final String TRINO_CATALOG = "iceberg";

    /** View property Trino shows as the view's comment. */
    static final String COMMENT_PROPERTY = "comment";

    /**
     * {@code fleet.positions_with_places}: every position with the place the geocoding job named it after, one row per
     * position. A left join: positions not geocoded yet, or too far from any place, have null place columns. Both
     * tables are keyed by (vehicle_id, event_time), so the join adds no rows.
     */
    public static final ViewDefinition POSITIONS_WITH_PLACES = positionsWithPlaces();

    public static final List<ViewDefinition> ALL = List.of(POSITIONS_WITH_PLACES);

    private static final Logger LOG = LoggerFactory.getLogger(FleetViews.class);

    private FleetViews() {}

    /**
     * Creates each view that does not exist and replaces one whose query, schema or default catalog differs from its
     * definition (a new version of the view; older versions stay in its history). A view that is up to date is not
     * written. Safe from several processes at once. The namespace must exist ({@link FleetTables#ensure} first).
     */
    public static void ensure(ViewCatalog catalog) {
        requireNonNull(catalog, "catalog is null");
        for (ViewDefinition definition : ALL) {
            ensure(catalog, definition);
        }
    }

    static void ensure(ViewCatalog catalog, ViewDefinition definition) {
        TableIdentifier identifier = definition.identifier();
        if (!catalog.viewExists(identifier)) {
            try {
                builder(catalog, definition).create();
                LOG.info("Created view {}", identifier);
                return;
            } catch (AlreadyExistsException e) {
                LOG.info("View {} was created concurrently: {}", identifier, e.getMessage());
            }
        }
        View view = catalog.loadView(identifier);
        if (!upToDate(view, definition)) {
            builder(catalog, definition).replace();
            LOG.info("Replaced view {} with its current definition", identifier);
        }
    }

    /** Whether the view's current version is the definition's. */
    static boolean upToDate(View view, ViewDefinition definition) {
        String sql = null;
        for (ViewRepresentation representation : view.currentVersion().representations()) {
            if (representation instanceof SQLViewRepresentation sqlRepresentation
                    && sqlRepresentation.dialect().equalsIgnoreCase(ViewDefinition.TRINO_DIALECT)) {
                sql = sqlRepresentation.sql();
            }
        }
        return definition.trinoSql().equals(sql)
                && view.schema().sameSchema(definition.schema())
                && Objects.equals(view.currentVersion().defaultCatalog(), definition.trinoCatalog())
                && definition.comment().equals(view.properties().get(COMMENT_PROPERTY));
    }

    private static org.apache.iceberg.view.ViewBuilder builder(ViewCatalog catalog, ViewDefinition definition) {
        return catalog.buildView(definition.identifier())
                .withSchema(definition.schema())
                .withQuery(ViewDefinition.TRINO_DIALECT, definition.trinoSql())
                .withDefaultNamespace(definition.identifier().namespace())
                .withDefaultCatalog(definition.trinoCatalog())
                .withProperties(Map.of(COMMENT_PROPERTY, definition.comment()));
    }

    private static ViewDefinition positionsWithPlaces() {
        List<String> positionColumns = List.of(
                PositionField.VEHICLE_ID.fieldName(),
                PositionField.EVENT_TIME.fieldName(),
                PositionField.LATITUDE.fieldName(),
                PositionField.LONGITUDE.fieldName(),
                PositionField.SPEED_KMH.fieldName(),
                PositionField.HEADING_DEG.fieldName(),
                EnrichmentColumns.ROUTE_ID,
                EnrichmentColumns.STATUS);
        List<String> placeColumns = List.of(
                PlaceColumns.PLACE_NAME,
                PlaceColumns.MUNICIPALITY,
                PlaceColumns.PROVINCE,
                PlaceColumns.REGION,
                PlaceColumns.COUNTRY_CODE,
                PlaceColumns.COUNTRY);
        StringBuilder sql = new StringBuilder("SELECT ");
        positionColumns.forEach(column -> sql.append("p.").append(column).append(", "));
        placeColumns.forEach(column -> sql.append("pl.").append(column).append(", "));
        sql.append("pl.")
                .append(PlaceColumns.DISTANCE_KM)
                .append(" AS ")
                .append(PlaceColumns.PLACE_DISTANCE_KM)
                .append(" FROM ")
                .append(Tables.POSITIONS)
                .append(" AS p LEFT JOIN ")
                .append(Tables.POSITION_PLACES)
                .append(" AS pl ON pl.")
                .append(PlaceColumns.VEHICLE_ID)
                .append(" = p.")
                .append(PositionField.VEHICLE_ID.fieldName())
                .append(" AND pl.")
                .append(PlaceColumns.EVENT_TIME)
                .append(" = p.")
                .append(PositionField.EVENT_TIME.fieldName());
        Types.StringType string = Types.StringType.get();
        Types.DoubleType number = Types.DoubleType.get();
        Schema schema = new Schema(
                optional(1, PositionField.VEHICLE_ID.fieldName(), string),
                optional(2, PositionField.EVENT_TIME.fieldName(), Types.TimestampType.withZone()),
                optional(3, PositionField.LATITUDE.fieldName(), number),
                optional(4, PositionField.LONGITUDE.fieldName(), number),
                optional(5, PositionField.SPEED_KMH.fieldName(), number),
                optional(6, PositionField.HEADING_DEG.fieldName(), number),
                optional(7, EnrichmentColumns.ROUTE_ID, string),
                optional(8, EnrichmentColumns.STATUS, string),
                optional(9, PlaceColumns.PLACE_NAME, string),
                optional(10, PlaceColumns.MUNICIPALITY, string),
                optional(11, PlaceColumns.PROVINCE, string),
                optional(12, PlaceColumns.REGION, string),
                optional(13, PlaceColumns.COUNTRY_CODE, string),
                optional(14, PlaceColumns.COUNTRY, string),
                optional(15, PlaceColumns.PLACE_DISTANCE_KM, number));
        return new ViewDefinition(
                TableIdentifier.of(FleetTables.NAMESPACE, Tables.POSITIONS_WITH_PLACES),
                schema,
                sql.toString(),
                TRINO_CATALOG,
                "Every position with its nearest place (fleet.position_places, written by fleet geocode); null place"
                        + " columns until the position is geocoded or when no place is near");
    }
}
