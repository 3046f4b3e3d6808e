package io.fleetlake.dashboard.vehicle;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.RedisKeys.VehicleField;
import java.time.Instant;
import java.util.Map;

/**
 * Turns the Redis hash of one vehicle ({@link io.fleetlake.model.RedisKeys#vehicle}, fields {@link VehicleField}) into a
 * {@link VehicleView}. Event time, latitude and longitude are required; every other field may be absent (the pipeline
 * leaves out what a position has no value for) and becomes null.
 */
public final class VehicleHashMapper {
    private VehicleHashMapper() {}

    /**
     * @param vehicleId the vehicle, as the last-seen set names it
     * @param hash the fields of its hash; must not be empty
     * @param staleBefore a fix taken before this instant is stale
     * @throws UnreadableVehicleException when a required field is missing or a value is malformed
     */
    public static VehicleView toVehicle(String vehicleId, Map<String, String> hash, Instant staleBefore) {
        requireNonNull(vehicleId, "vehicleId is null");
        requireNonNull(hash, "hash is null");
        requireNonNull(staleBefore, "staleBefore is null");
        Fields fields = new Fields(vehicleId, hash);
        Instant eventTime = fields.requiredInstant(VehicleField.EVENT_TIME);
        return new VehicleView(
                vehicleId,
                fields.requiredDouble(VehicleField.LATITUDE),
                fields.requiredDouble(VehicleField.LONGITUDE),
                fields.optionalDouble(VehicleField.SPEED_KMH),
                fields.optionalDouble(VehicleField.HEADING_DEG),
                fields.optionalString(VehicleField.STATUS),
                fields.optionalString(VehicleField.ROUTE_ID),
                fields.optionalString(VehicleField.NEXT_STOP_ID),
                fields.optionalDouble(VehicleField.DISTANCE_TO_NEXT_STOP_M),
                fields.optionalDouble(VehicleField.DISTANCE_FROM_ROUTE_M),
                fields.optionalDouble(VehicleField.BATTERY_LEVEL),
                fields.optionalBoolean(VehicleField.ENRICHMENT_STALE),
                // Places are named in the history by the geocoding batch job, not in the real-time state.
                null,
                null,
                eventTime,
                fields.optionalInstant(VehicleField.UPDATED_AT),
                eventTime.isBefore(staleBefore));
    }

    /** Field access with errors that name the vehicle, the field and the value. */
    private record Fields(String vehicleId, Map<String, String> hash) {
        String optionalString(VehicleField field) {
            String value = hash.get(field.field());
            return value == null || value.isEmpty() ? null : value;
        }

        Double optionalDouble(VehicleField field) {
            String value = optionalString(field);
            if (value == null) {
                return null;
            }
            double parsed;
            try {
                parsed = Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw unreadable(field, value, "is not a number", e);
            }
            if (!Double.isFinite(parsed)) {
                throw unreadable(field, value, "is not a finite number", null);
            }
            return parsed;
        }

        double requiredDouble(VehicleField field) {
            Double value = optionalDouble(field);
            if (value == null) {
                throw missing(field);
            }
            return value;
        }

        Instant optionalInstant(VehicleField field) {
            String value = optionalString(field);
            if (value == null) {
                return null;
            }
            try {
                return Instant.ofEpochMilli(Long.parseLong(value));
            } catch (NumberFormatException e) {
                throw unreadable(field, value, "is not epoch milliseconds", e);
            }
        }

        Instant requiredInstant(VehicleField field) {
            Instant value = optionalInstant(field);
            if (value == null) {
                throw missing(field);
            }
            return value;
        }

        Boolean optionalBoolean(VehicleField field) {
            String value = optionalString(field);
            if (value == null) {
                return null;
            }
            if (value.equals("true")) {
                return Boolean.TRUE;
            }
            if (value.equals("false")) {
                return Boolean.FALSE;
            }
            throw unreadable(field, value, "is neither true nor false", null);
        }

        private UnreadableVehicleException missing(VehicleField field) {
            return new UnreadableVehicleException(
                    "Vehicle " + vehicleId + ": the Redis hash has no " + field.field() + " field");
        }

        private UnreadableVehicleException unreadable(
                VehicleField field, String value, String problem, Throwable cause) {
            return new UnreadableVehicleException(
                    "Vehicle " + vehicleId + ": " + field.field() + " '" + value + "' " + problem, cause);
        }
    }
}
