package io.fleetlake.dashboard.vehicle;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.EnrichmentColumns;
import io.fleetlake.model.LineageColumns;
import io.fleetlake.model.PlaceColumns;
import io.fleetlake.model.codec.PositionField;
import java.time.Instant;
import java.util.Map;

/**
 * Turns a row of {@code fleet.positions}, as column name to JDBC value (timestamps already {@link Instant}), into a
 * {@link VehicleView}. A column the row lacks (a snapshot written before the column was added) becomes null; the
 * record's ingest time stands for {@code updated_at}, which the table does not have.
 */
public final class VehicleRowMapper {
    private VehicleRowMapper() {}

    /**
     * @param row column name (lower case) to value
     * @param staleBefore a fix taken before this instant is stale
     * @throws UnreadableVehicleException when the vehicle id, event time or coordinates are missing or mistyped
     */
    public static VehicleView toVehicle(Map<String, Object> row, Instant staleBefore) {
        requireNonNull(row, "row is null");
        requireNonNull(staleBefore, "staleBefore is null");
        String vehicleId = required(row, PositionField.VEHICLE_ID.fieldName(), String.class, "unknown vehicle");
        Instant eventTime = required(row, PositionField.EVENT_TIME.fieldName(), Instant.class, vehicleId);
        return new VehicleView(
                vehicleId,
                required(row, PositionField.LATITUDE.fieldName(), Number.class, vehicleId)
                        .doubleValue(),
                required(row, PositionField.LONGITUDE.fieldName(), Number.class, vehicleId)
                        .doubleValue(),
                optionalDouble(row, PositionField.SPEED_KMH.fieldName(), vehicleId),
                optionalDouble(row, PositionField.HEADING_DEG.fieldName(), vehicleId),
                optional(row, EnrichmentColumns.STATUS, String.class, vehicleId),
                optional(row, EnrichmentColumns.ROUTE_ID, String.class, vehicleId),
                optional(row, EnrichmentColumns.NEXT_STOP_ID, String.class, vehicleId),
                optionalDouble(row, EnrichmentColumns.DISTANCE_TO_NEXT_STOP_M, vehicleId),
                optionalDouble(row, EnrichmentColumns.DISTANCE_FROM_ROUTE_M, vehicleId),
                optionalDouble(row, PositionField.BATTERY_LEVEL.fieldName(), vehicleId),
                optional(row, EnrichmentColumns.ENRICHMENT_STALE, Boolean.class, vehicleId),
                optional(row, PlaceColumns.PLACE_NAME, String.class, vehicleId),
                optional(row, PlaceColumns.PROVINCE, String.class, vehicleId),
                eventTime,
                optional(row, LineageColumns.INGEST_TIME, Instant.class, vehicleId),
                eventTime.isBefore(staleBefore));
    }

    private static Double optionalDouble(Map<String, Object> row, String column, String vehicleId) {
        Number value = optional(row, column, Number.class, vehicleId);
        return value == null ? null : value.doubleValue();
    }

    private static <T> T required(Map<String, Object> row, String column, Class<T> type, String vehicleId) {
        T value = optional(row, column, type, vehicleId);
        if (value == null) {
            throw new UnreadableVehicleException(
                    "Vehicle " + vehicleId + ": the fleet.positions row has no " + column + " value");
        }
        return value;
    }

    private static <T> T optional(Map<String, Object> row, String column, Class<T> type, String vehicleId) {
        Object value = row.get(column);
        if (value == null) {
            return null;
        }
        if (!type.isInstance(value)) {
            throw new UnreadableVehicleException("Vehicle " + vehicleId + ": column " + column + " holds a "
                    + value.getClass().getSimpleName() + ", expected a " + type.getSimpleName());
        }
        return type.cast(value);
    }
}
