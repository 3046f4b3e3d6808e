package io.fleetlake.stack.inspect;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.RedisKeys;
import java.util.Map;
import redis.clients.jedis.Jedis;

/** Reads the fleet's current state from Redis. */
public final class RedisInspector {
    private final String host;
    private final int port;

    public RedisInspector(String host, int port) {
        this.host = requireNonNull(host, "host is null");
        this.port = port;
    }

    /** Vehicles with a current position. */
    public long vehicleCount() {
        try (Jedis jedis = new Jedis(host, port)) {
            return jedis.zcard(RedisKeys.LAST_SEEN);
        }
    }

    /** The hash of one vehicle; empty when Redis does not know the vehicle. */
    public Map<String, String> vehicle(String vehicleId) {
        try (Jedis jedis = new Jedis(host, port)) {
            return jedis.hgetAll(RedisKeys.vehicle(vehicleId));
        }
    }
}
