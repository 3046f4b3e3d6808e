package io.fleetlake.stack.inspect;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.RedisKeys;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.resps.Tuple;

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

    /**
     * How current the fleet's state in Redis is: the event times in {@code fleet:last_seen} (each vehicle's newest
     * position) of the vehicle seen longest ago, the median vehicle and the vehicle seen last, as ages at {@code now}.
     * Three range reads of the sorted set, whatever the fleet's size.
     *
     * @throws InspectionException when Redis cannot be asked
     */
    public Freshness freshness(Instant now) {
        try (Jedis jedis = new Jedis(uri)) {
            long vehicles = jedis.zcard(RedisKeys.LAST_SEEN);
            if (vehicles == 0) {
                return new Freshness(0, Optional.empty(), Optional.empty(), Optional.empty());
            }
            return new Freshness(
                    vehicles,
                    age(jedis.zrangeWithScores(RedisKeys.LAST_SEEN, 0, 0), now),
                    age(jedis.zrangeWithScores(RedisKeys.LAST_SEEN, vehicles / 2, vehicles / 2), now),
                    age(jedis.zrangeWithScores(RedisKeys.LAST_SEEN, -1, -1), now));
        } catch (JedisException e) {
            throw new InspectionException("Cannot read " + RedisKeys.LAST_SEEN + " from Redis: " + e.getMessage(), e);
        }
    }

    private static Optional<Duration> age(List<Tuple> entries, Instant now) {
        return entries.stream().findFirst().map(entry -> {
            Duration age = Duration.between(Instant.ofEpochMilli((long) entry.getScore()), now);
            return age.isNegative() ? Duration.ZERO : age;
        });
    }

    /**
     * @param vehicles vehicles with a current position
     * @param oldest age of the newest position of the vehicle seen longest ago
     * @param median age of the median vehicle's newest position
     * @param newest age of the newest position of any vehicle
     */
    public record Freshness(
            long vehicles, Optional<Duration> oldest, Optional<Duration> median, Optional<Duration> newest) {
        public Freshness {
            requireNonNull(oldest, "oldest is null");
            requireNonNull(median, "median is null");
            requireNonNull(newest, "newest is null");
        }
    }
}
