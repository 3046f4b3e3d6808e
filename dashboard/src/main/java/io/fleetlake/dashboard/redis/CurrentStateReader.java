package io.fleetlake.dashboard.redis;

import java.util.Map;

/**
 * Reads the fleet's current state that the pipeline keeps in Redis. Implementations are thread-safe and throw
 * {@link io.fleetlake.dashboard.error.DashboardException} with
 * {@link io.fleetlake.dashboard.error.DashboardError#REDIS_UNAVAILABLE} when Redis fails.
 */
public interface CurrentStateReader {
    /**
     * The hash of every vehicle in the last-seen set, by vehicle id in last-seen order (oldest first). A vehicle whose
     * hash is gone maps to an empty map.
     */
    Map<String, Map<String, String>> fleet();

    /** The hash of one vehicle; empty when Redis holds none. */
    Map<String, String> vehicle(String vehicleId);
}
