package io.fleetlake.stack.inspect;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.RedisKeys;
import java.net.URI;
import java.util.Map;
import redis.clients.jedis.Jedis;

/** Reads the fleet's current state from Redis. */
public final class RedisInspector {
    private final URI uri;

    /** @param uri may carry credentials, as {@code redis://user:password@host:port} */
    public RedisInspector(URI uri) {
        this.uri = requireNonNull(uri, "uri is null");
    }

    /** Vehicles with a current position. */
    public long vehicleCount() {
        try (Jedis jedis = new Jedis(uri)) {
            return jedis.zcard(RedisKeys.LAST_SEEN);
        }
    }

    /** The hash of one vehicle; empty when Redis does not know the vehicle. */
    public Map<String, String> vehicle(String vehicleId) {
        try (Jedis jedis = new Jedis(uri)) {
            return jedis.hgetAll(RedisKeys.vehicle(vehicleId));
        }
    }
}
