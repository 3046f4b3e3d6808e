package io.fleetlake.dashboard.fakes;

import io.fleetlake.dashboard.error.DashboardError;
import io.fleetlake.dashboard.error.DashboardException;
import io.fleetlake.dashboard.redis.CurrentStateReader;
import io.fleetlake.model.RedisKeys.VehicleField;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/** Redis as a map of vehicle hashes, in last-seen order; can be switched to fail like an unreachable Redis. */
public final class FakeCurrentState implements CurrentStateReader {
    private final Map<String, Map<String, String>> hashes = new LinkedHashMap<>();
    private boolean unreachable;

    /** A vehicle with the required fields and a status; add more with {@link #put}. */
    public FakeCurrentState vehicle(
            String vehicleId, Instant eventTime, double latitude, double longitude, String status) {
        Map<String, String> hash = new HashMap<>();
        hash.put(VehicleField.VEHICLE_ID.field(), vehicleId);
        hash.put(VehicleField.EVENT_TIME.field(), Long.toString(eventTime.toEpochMilli()));
        hash.put(VehicleField.LATITUDE.field(), Double.toString(latitude));
        hash.put(VehicleField.LONGITUDE.field(), Double.toString(longitude));
        hash.put(VehicleField.SPEED_KMH.field(), "42.5");
        hash.put(VehicleField.HEADING_DEG.field(), "90.0");
        hash.put(VehicleField.UPDATED_AT.field(), Long.toString(eventTime.toEpochMilli() + 150));
        if (status != null) {
            hash.put(VehicleField.STATUS.field(), status);
        }
        return put(vehicleId, hash);
    }

    public FakeCurrentState put(String vehicleId, Map<String, String> hash) {
        hashes.put(vehicleId, new HashMap<>(hash));
        return this;
    }

    public FakeCurrentState unreachable() {
        unreachable = true;
        return this;
    }

    @Override
    public Map<String, Map<String, String>> fleet() {
        failIfUnreachable();
        Map<String, Map<String, String>> copy = new LinkedHashMap<>();
        hashes.forEach((vehicleId, hash) -> copy.put(vehicleId, Map.copyOf(hash)));
        return copy;
    }

    @Override
    public Map<String, String> vehicle(String vehicleId) {
        failIfUnreachable();
        return Map.copyOf(hashes.getOrDefault(vehicleId, Map.of()));
    }

    private void failIfUnreachable() {
        if (unreachable) {
            throw new DashboardException(
                    DashboardError.REDIS_UNAVAILABLE, "Redis at 127.0.0.1:6379 failed: Connection refused");
        }
    }
}
