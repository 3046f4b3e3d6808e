package io.fleetlake.dashboard.redis;

import static java.util.Objects.requireNonNull;

import io.fleetlake.dashboard.Redaction;
import io.fleetlake.dashboard.error.DashboardError;
import io.fleetlake.dashboard.error.DashboardException;
import io.fleetlake.model.RedisKeys;
import io.fleetlake.redis.RedisConnections;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisException;

/**
 * {@link CurrentStateReader} over a pooled Jedis {@link RedisClient}: the last-seen set in one command, then every
 * vehicle hash in one pipelined round trip, whatever the fleet size.
 */
public final class JedisCurrentStateReader implements CurrentStateReader, AutoCloseable {
    private final RedisClient client;
    private final String endpoint;

    private JedisCurrentStateReader(RedisClient client, String endpoint) {
        this.client = requireNonNull(client, "client is null");
        this.endpoint = requireNonNull(endpoint, "endpoint is null");
    }

    /** Connects lazily: Redis need not be up yet, each read reports its own failure. */
    public static JedisCurrentStateReader connect(URI redisUri) {
        requireNonNull(redisUri, "redisUri is null");
        return new JedisCurrentStateReader(
                RedisConnections.pooled(redisUri, RedisConnections.DEFAULT_TIMEOUT), Redaction.endpoint(redisUri));
    }

    @Override
    public Map<String, Map<String, String>> fleet() {
        try {
            List<String> vehicleIds = client.zrange(RedisKeys.LAST_SEEN, 0, -1);
            List<Response<Map<String, String>>> hashes = new ArrayList<>(vehicleIds.size());
            try (AbstractPipeline pipeline = client.pipelined()) {
                for (String vehicleId : vehicleIds) {
                    hashes.add(pipeline.hgetAll(RedisKeys.vehicle(vehicleId)));
                }
                pipeline.sync();
            }
            Map<String, Map<String, String>> fleet = new LinkedHashMap<>();
            for (int index = 0; index < vehicleIds.size(); index++) {
                fleet.put(vehicleIds.get(index), hashes.get(index).get());
            }
            return fleet;
        } catch (JedisException e) {
            throw unavailable(e);
        }
    }

    @Override
    public Map<String, String> vehicle(String vehicleId) {
        requireNonNull(vehicleId, "vehicleId is null");
        try {
            return client.hgetAll(RedisKeys.vehicle(vehicleId));
        } catch (JedisException e) {
            throw unavailable(e);
        }
    }

    @Override
    public void close() {
        client.close();
    }

    private DashboardException unavailable(JedisException e) {
        return new DashboardException(
                DashboardError.REDIS_UNAVAILABLE, "Redis at " + endpoint + " failed: " + e.getMessage(), e);
    }
}
