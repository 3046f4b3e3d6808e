package io.fleetlake.flink.sinks;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.RedisKeys;
import io.fleetlake.model.RedisKeys.VehicleField;
import io.fleetlake.redis.RedisConnections;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * Applies current-state updates to Redis: one {@code EVALSHA} of {@code redis/newer-wins-batch.lua} per batch of
 * vehicles, so a batch costs one round trip. For each vehicle the script compares the stored event time and, only if
 * the update is strictly newer, writes the vehicle hash, the GEO index and the last-seen sorted set; the whole batch is
 * one atomic step. A vehicle whose key holds something else than a hash is left alone (and reported as not applied,
 * with a warning), and the other vehicles of the batch are still applied.
 *
 * <p>Every applied vehicle's hash expires {@code vehicleTtl} after its last write ({@code pipeline.redis-vehicle-ttl}),
 * set by the same script, so a vehicle unseen for that long leaves Redis; the script also drops expired vehicles from
 * the GEO index and the last-seen set (up to 256 per call, through {@link RedisKeys#EXPIRY}).
 *
 * <p>The connection settings come from the URI: {@code redis://} or {@code rediss://} (TLS), credentials for a password
 * ({@code redis://:password@host:port}) or an ACL user ({@code redis://user:password@host:port}), and a database
 * number as path ({@code /2}). The credentials never appear in an error message.
 */
final class JedisCurrentStateStore implements CurrentStateStore {
    static final String SCRIPT_RESOURCE = "/redis/newer-wins-batch.lua";

    private static final Logger LOG = LoggerFactory.getLogger(JedisCurrentStateStore.class);
    private static final String REDACTED = "<redacted>";
    private static final VehicleField[] FIELDS = VehicleField.values();

    private final HostAndPort address;
    private final String password;
    private final RedisClient client;
    private final String script;
    private final Duration vehicleTtl;
    private String scriptSha;

    private JedisCurrentStateStore(URI redisUri, RedisClient client, String script, Duration vehicleTtl) {
        requireNonNull(redisUri, "redisUri is null");
        this.address = JedisURIHelper.getHostAndPort(redisUri);
        this.password = JedisURIHelper.getPassword(redisUri);
        this.client = requireNonNull(client, "client is null");
        this.script = requireNonNull(script, "script is null");
        this.vehicleTtl = requireNonNull(vehicleTtl, "vehicleTtl is null");
    }

    /**
     * Opens stores on the Redis server at {@code redisUri}.
     *
     * @param requestTimeout longest a connection attempt or a request may take, so that an unreachable server fails a
     *     write instead of blocking the task
     * @param vehicleTtl how long a vehicle's state stays after its last write
     */
    static CurrentStateStore.Factory factory(URI redisUri, Duration requestTimeout, Duration vehicleTtl) {
        requireNonNull(redisUri, "redisUri is null");
        requireNonNull(requestTimeout, "requestTimeout is null");
        requireNonNull(vehicleTtl, "vehicleTtl is null");
        return () -> new JedisCurrentStateStore(
                redisUri, RedisConnections.pooled(redisUri, requestTimeout), readScript(), vehicleTtl);
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
     * The script's {@code ARGV} header: the number of {@link VehicleField}s, the positions (1-based) of the vehicle id,
     * the event time, the latitude and the longitude among them, the vehicles' time to live in milliseconds, then their
     * names. Field names travel as arguments so that {@link VehicleField} stays their single definition.
     */
    private static List<String> header(Duration vehicleTtl) {
        List<String> header = new ArrayList<>();
        header.add(Integer.toString(FIELDS.length));
        header.add(Integer.toString(VehicleField.VEHICLE_ID.ordinal() + 1));
        header.add(Integer.toString(VehicleField.EVENT_TIME.ordinal() + 1));
        header.add(Integer.toString(VehicleField.LATITUDE.ordinal() + 1));
        header.add(Integer.toString(VehicleField.LONGITUDE.ordinal() + 1));
        header.add(Long.toString(vehicleTtl.toMillis()));
        for (VehicleField field : FIELDS) {
            header.add(field.field());
        }
        return List.copyOf(header);
    }

    /**
     * The script arguments of a batch: the {@link #header}, then per update one value per {@link VehicleField} in their
     * order, an empty string for a field the fix has no value for (the script deletes it).
     */
    static List<String> arguments(List<VehicleState> updates, Instant updatedAt, Duration vehicleTtl) {
        List<String> header = header(vehicleTtl);
        List<String> arguments = new ArrayList<>(header.size() + updates.size() * FIELDS.length);
        arguments.addAll(header);
        String updated = Long.toString(updatedAt.toEpochMilli());
        for (VehicleState update : updates) {
            values(update, updated, arguments);
        }
        return arguments;
    }

    /** Appends the values of one update, in the order of {@link VehicleField}. */
    static void values(VehicleState update, String updatedAt, List<String> arguments) {
        for (VehicleField field : FIELDS) {
            arguments.add(
                    switch (field) {
                        case VEHICLE_ID -> update.vehicleId();
                        case EVENT_TIME -> Long.toString(update.eventTime().toEpochMilli());
                        case LATITUDE -> Double.toString(update.latitude());
                        case LONGITUDE -> Double.toString(update.longitude());
                        case SPEED_KMH -> Double.toString(update.speedKmh());
                        case HEADING_DEG -> Double.toString(update.headingDeg());
                        case BATTERY_LEVEL -> text(update.batteryLevel());
                        case STATUS -> update.status().name();
                        case ROUTE_ID -> text(update.routeId());
                        case NEXT_STOP_ID -> text(update.nextStopId());
                        case DISTANCE_TO_NEXT_STOP_M -> text(update.distanceToNextStopM());
                        case DISTANCE_FROM_ROUTE_M -> text(update.distanceFromRouteM());
                        case ENRICHMENT_STALE -> Boolean.toString(update.enrichmentStale());
                        case UPDATED_AT -> updatedAt;
                    });
        }
    }

    /** A value as the hash holds it; the empty string (deleted) when there is none. */
    private static String text(Object value) {
        return value == null ? "" : value.toString();
    }

    /** {@code KEYS}: the GEO index, the last-seen set, the expiry set, then the hash of each vehicle of the batch. */
    static List<String> keys(List<VehicleState> updates) {
        List<String> keys = new ArrayList<>(3 + updates.size());
        keys.add(RedisKeys.GEO_INDEX);
        keys.add(RedisKeys.LAST_SEEN);
        keys.add(RedisKeys.EXPIRY);
        for (VehicleState update : updates) {
            keys.add(RedisKeys.vehicle(update.vehicleId()));
        }
        return keys;
    }

    @Override
    public List<Boolean> applyNewerWins(List<VehicleState> updates, Instant updatedAt) {
        if (updates.isEmpty()) {
            return List.of();
        }
        try {
            if (scriptSha == null) {
                scriptSha = client.scriptLoad(script);
            }
            try {
                return evaluate(updates, updatedAt);
            } catch (JedisNoScriptException e) {
                // Redis lost its script cache (restart or SCRIPT FLUSH): load the script again. Nothing of the batch
                // ran.
                scriptSha = client.scriptLoad(script);
                return evaluate(updates, updatedAt);
            }
        } catch (JedisException e) {
            throw new CurrentStateStoreException("Redis at " + address + " failed: " + redact(e.getMessage()), e);
        }
    }

    private List<Boolean> evaluate(List<VehicleState> updates, Instant updatedAt) {
        Object reply = client.evalsha(scriptSha, keys(updates), arguments(updates, updatedAt, vehicleTtl));
        if (!(reply instanceof List<?> results) || results.size() != updates.size()) {
            throw new CurrentStateStoreException(
                    "Redis at " + address + " answered the current-state script with " + reply
                            + " instead of one result per vehicle of the " + updates.size() + " sent",
                    null);
        }
        List<Boolean> applied = new ArrayList<>(results.size());
        List<String> refused = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            Object result = results.get(i);
            applied.add(Long.valueOf(1).equals(result));
            if (Long.valueOf(-1).equals(result)) {
                refused.add(RedisKeys.vehicle(updates.get(i).vehicleId()));
            }
        }
        if (!refused.isEmpty()) {
            LOG.warn(
                    "Redis at {} holds something else than a vehicle hash at {}; those vehicles' current state is not"
                            + " written until the keys are deleted",
                    address,
                    refused);
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
