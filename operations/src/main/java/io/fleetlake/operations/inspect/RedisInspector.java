package io.fleetlake.operations.inspect;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.RedisKeys;
import io.fleetlake.redis.RedisConnections;
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
        try (Jedis jedis = connect()) {
            return jedis.zcard(RedisKeys.LAST_SEEN);
        }
    }

    /** The hash of one vehicle; empty when Redis does not know the vehicle. */
    public Map<String, String> vehicle(String vehicleId) {
        try (Jedis jedis = connect()) {
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
        try (Jedis jedis = connect()) {
            long vehicles = jedis.zcard(RedisKeys.LAST_SEEN);
            Optional<Memory> memory = Optional.of(Memory.parse(jedis.info("memory") + "\n" + jedis.info("errorstats")));
            if (vehicles == 0) {
                return new Freshness(0, Optional.empty(), Optional.empty(), Optional.empty(), memory);
            }
            return new Freshness(
                    vehicles,
                    age(jedis.zrangeWithScores(RedisKeys.LAST_SEEN, 0, 0), now),
                    age(jedis.zrangeWithScores(RedisKeys.LAST_SEEN, vehicles / 2, vehicles / 2), now),
                    age(jedis.zrangeWithScores(RedisKeys.LAST_SEEN, -1, -1), now),
                    memory);
        } catch (JedisException e) {
            throw new InspectionException("Cannot read " + RedisKeys.LAST_SEEN + " from Redis: " + e.getMessage(), e);
        }
    }

    /** A short-lived connection with the credentials of the URI (the monitor role's, in the stack). */
    private Jedis connect() {
        return RedisConnections.single(uri, RedisConnections.DEFAULT_TIMEOUT);
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
     * @param memory how full Redis is; empty when not read
     */
    public record Freshness(
            long vehicles,
            Optional<Duration> oldest,
            Optional<Duration> median,
            Optional<Duration> newest,
            Optional<Memory> memory) {
        public Freshness {
            requireNonNull(oldest, "oldest is null");
            requireNonNull(median, "median is null");
            requireNonNull(newest, "newest is null");
            requireNonNull(memory, "memory is null");
        }

        /** Without the memory reading. */
        public Freshness(
                long vehicles, Optional<Duration> oldest, Optional<Duration> median, Optional<Duration> newest) {
            this(vehicles, oldest, median, newest, Optional.empty());
        }
    }

    /**
     * How full Redis is: with {@code maxmemory-policy noeviction} a write past {@code maxmemory} is refused with an
     * {@code OOM} error instead of evicting a vehicle's state, so both the fill level and the refusals are watched
     * (alerts FleetRedisMemoryHigh and FleetRedisFull).
     *
     * @param usedBytes {@code used_memory} of {@code INFO memory}
     * @param maxBytes {@code maxmemory}; 0 when Redis has no limit
     * @param refusedWrites commands refused with {@code OOM} since Redis started ({@code errorstat_OOM} of {@code INFO
     *     errorstats})
     */
    public record Memory(long usedBytes, long maxBytes, long refusedWrites) {
        /** Reads the fields from the text of {@code INFO memory} and {@code INFO errorstats}; absent ones are 0. */
        public static Memory parse(String info) {
            requireNonNull(info, "info is null");
            long used = 0;
            long max = 0;
            long refused = 0;
            for (String line : info.split("\\r?\\n")) {
                if (line.startsWith("used_memory:")) {
                    used = Long.parseLong(
                            line.substring("used_memory:".length()).trim());
                } else if (line.startsWith("maxmemory:")) {
                    max = Long.parseLong(line.substring("maxmemory:".length()).trim());
                } else if (line.startsWith("errorstat_OOM:count=")) {
                    String count =
                            line.substring("errorstat_OOM:count=".length()).trim();
                    int comma = count.indexOf(',');
                    refused = Long.parseLong(comma < 0 ? count : count.substring(0, comma));
                }
            }
            return new Memory(used, max, refused);
        }
    }
}
