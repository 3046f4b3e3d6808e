package io.fleetlake.flink.sinks;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.RedisKeys;
import io.fleetlake.model.RedisKeys.VehicleField;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * Applies current-state updates to Redis: one pipelined {@code EVALSHA} of {@code redis/newer-wins.lua} per vehicle.
 * The script compares the stored event time and, only if the update is strictly newer, writes the vehicle hash, the
 * GEO index and the last-seen sorted set in one atomic step.
 *
 * <p>The connection settings come from the URI: {@code redis://} or {@code rediss://} (TLS), credentials for a password
 * ({@code redis://:password@host:port}) or an ACL user ({@code redis://user:password@host:port}), and a database
 * number as path ({@code /2}). The credentials never appear in an error message.
 */
final class JedisCurrentStateStore implements CurrentStateStore {
    static final String SCRIPT_RESOURCE = "/redis/newer-wins.lua";

    private static final String REDACTED = "<redacted>";

    private final HostAndPort address;
    private final String password;
    private final RedisClient client;
    private final String script;
    private String scriptSha;

    private JedisCurrentStateStore(URI redisUri, RedisClient client, String script) {
        requireNonNull(redisUri, "redisUri is null");
        this.address = JedisURIHelper.getHostAndPort(redisUri);
        this.password = JedisURIHelper.getPassword(redisUri);
        this.client = requireNonNull(client, "client is null");
        this.script = requireNonNull(script, "script is null");
    }

    /**
     * Opens stores on the Redis server at {@code redisUri}.
     *
     * @param requestTimeout longest a connection attempt or a request may take, so that an unreachable server fails a
     *     write instead of blocking the task
     */
    static CurrentStateStore.Factory factory(URI redisUri, Duration requestTimeout) {
        requireNonNull(redisUri, "redisUri is null");
        requireNonNull(requestTimeout, "requestTimeout is null");
        return () -> new JedisCurrentStateStore(
                redisUri,
                RedisClient.builder()
                        .hostAndPort(JedisURIHelper.getHostAndPort(redisUri))
                        .clientConfig(clientConfig(redisUri, requestTimeout))
                        .build(),
                readScript());
    }

    /** Credentials, database and TLS from the URI, with the timeouts. */
    static JedisClientConfig clientConfig(URI redisUri, Duration requestTimeout) {
        int timeoutMillis = Math.toIntExact(requestTimeout.toMillis());
        return DefaultJedisClientConfig.builder(redisUri)
                .connectionTimeoutMillis(timeoutMillis)
                .socketTimeoutMillis(timeoutMillis)
                .build();
    }

    static String readScript() {
        try (InputStream in = JedisCurrentStateStore.class.getResourceAsStream(SCRIPT_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("Resource " + SCRIPT_RESOURCE + " is missing from the flink-jobs jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + SCRIPT_RESOURCE, e);
        }
    }

    /**
     * Script arguments: {@code KEYS = [vehicle hash, GEO index, last-seen set]}, {@code ARGV = [vehicle id, event time
     * ms, longitude, latitude, event-time field name, number of fields to delete, the fields to delete, then field/value
     * pairs for the hash]}. Every {@link VehicleField} is either written or deleted, so that no value of an earlier fix
     * (a route, a battery level) outlives it. Field names travel as arguments so that {@link VehicleField} stays their
     * single definition.
     */
    static List<String> arguments(VehicleState update, Instant updatedAt) {
        String eventTime = Long.toString(update.eventTime().toEpochMilli());
        Map<VehicleField, String> values = new EnumMap<>(VehicleField.class);
        values.put(VehicleField.VEHICLE_ID, update.vehicleId());
        values.put(VehicleField.EVENT_TIME, eventTime);
        values.put(VehicleField.LATITUDE, Double.toString(update.latitude()));
        values.put(VehicleField.LONGITUDE, Double.toString(update.longitude()));
        values.put(VehicleField.SPEED_KMH, Double.toString(update.speedKmh()));
        values.put(VehicleField.HEADING_DEG, Double.toString(update.headingDeg()));
        putIfPresent(values, VehicleField.BATTERY_LEVEL, update.batteryLevel());
        values.put(VehicleField.STATUS, update.status().name());
        putIfPresent(values, VehicleField.ROUTE_ID, update.routeId());
        putIfPresent(values, VehicleField.NEXT_STOP_ID, update.nextStopId());
        putIfPresent(values, VehicleField.DISTANCE_TO_NEXT_STOP_M, update.distanceToNextStopM());
        putIfPresent(values, VehicleField.DISTANCE_FROM_ROUTE_M, update.distanceFromRouteM());
        values.put(VehicleField.ENRICHMENT_STALE, Boolean.toString(update.enrichmentStale()));
        values.put(VehicleField.UPDATED_AT, Long.toString(updatedAt.toEpochMilli()));

        List<String> deleted = Arrays.stream(VehicleField.values())
                .filter(field -> !values.containsKey(field))
                .map(VehicleField::field)
                .toList();
        List<String> arguments = new ArrayList<>(6 + deleted.size() + 2 * values.size());
        arguments.add(update.vehicleId());
        arguments.add(eventTime);
        arguments.add(Double.toString(update.longitude()));
        arguments.add(Double.toString(update.latitude()));
        arguments.add(VehicleField.EVENT_TIME.field());
        arguments.add(Integer.toString(deleted.size()));
        arguments.addAll(deleted);
        values.forEach((field, value) -> {
            arguments.add(field.field());
            arguments.add(value);
        });
        return arguments;
    }

    private static void putIfPresent(Map<VehicleField, String> values, VehicleField field, Object value) {
        if (value != null) {
            values.put(field, value.toString());
        }
    }

    static List<String> keys(VehicleState update) {
        return List.of(RedisKeys.vehicle(update.vehicleId()), RedisKeys.GEO_INDEX, RedisKeys.LAST_SEEN);
    }

    @Override
    public List<Boolean> applyNewerWins(List<VehicleState> updates, Instant updatedAt) {
        try {
            if (scriptSha == null) {
                scriptSha = client.scriptLoad(script);
            }
            try {
                return evaluate(updates, updatedAt);
            } catch (JedisNoScriptException e) {
                // Redis lost its script cache (restart or SCRIPT FLUSH): load the script again. Re-applying the
                // updates that did run is harmless, they are no longer newer.
                scriptSha = client.scriptLoad(script);
                return evaluate(updates, updatedAt);
            }
        } catch (JedisException e) {
            throw new CurrentStateStoreException("Redis at " + address + " failed: " + redact(e.getMessage()), e);
        }
    }

    private List<Boolean> evaluate(List<VehicleState> updates, Instant updatedAt) {
        List<Response<Object>> responses = new ArrayList<>(updates.size());
        try (Pipeline pipeline = client.pipelined()) {
            for (VehicleState update : updates) {
                responses.add(pipeline.evalsha(scriptSha, keys(update), arguments(update, updatedAt)));
            }
            pipeline.sync();
        }
        List<Boolean> applied = new ArrayList<>(responses.size());
        for (Response<Object> response : responses) {
            applied.add(Long.valueOf(1).equals(response.get()));
        }
        return applied;
    }

    /** Jedis does not put the password into its messages today; this keeps it so should one ever quote a command. */
    private String redact(String message) {
        if (message == null || password == null || password.isEmpty()) {
            return message;
        }
        return message.replace(password, REDACTED);
    }

    @Override
    public void close() {
        client.close();
    }
}
