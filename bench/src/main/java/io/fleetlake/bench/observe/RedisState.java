package io.fleetlake.bench.observe;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.RedisKeys;
import io.fleetlake.model.RedisKeys.VehicleField;
import io.fleetlake.redis.RedisConnections;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;

/** Reads the vehicles' current state from Redis with pipelined requests, over one connection. Not thread-safe. */
public final class RedisState implements AutoCloseable {
    private final Jedis jedis;

    /** @param uri such as {@code redis://host:port}, with credentials when Redis requires them */
    public RedisState(URI uri) {
        this.jedis = RedisConnections.single(requireNonNull(uri, "uri is null"), RedisConnections.DEFAULT_TIMEOUT);
    }

    /** Event time (epoch ms) and write time of each vehicle's hash, in the order asked; empty for unknown vehicles. */
    public List<Optional<VehicleStamp>> stamps(List<String> vehicleIds) {
        Pipeline pipeline = jedis.pipelined();
        List<Response<List<String>>> responses = new ArrayList<>(vehicleIds.size());
        for (String vehicleId : vehicleIds) {
            responses.add(pipeline.hmget(
                    RedisKeys.vehicle(vehicleId), VehicleField.EVENT_TIME.field(), VehicleField.UPDATED_AT.field()));
        }
        pipeline.sync();
        List<Optional<VehicleStamp>> stamps = new ArrayList<>(responses.size());
        for (Response<List<String>> response : responses) {
            List<String> fields = response.get();
            stamps.add(
                    fields.get(0) == null || fields.get(1) == null
                            ? Optional.empty()
                            : Optional.of(
                                    new VehicleStamp(Long.parseLong(fields.get(0)), Long.parseLong(fields.get(1)))));
        }
        return stamps;
    }

    @Override
    public void close() {
        jedis.close();
    }

    /**
     * @param eventTime epoch ms of the newest position the pipeline wrote
     * @param updatedAt epoch ms at which the pipeline wrote it
     */
    public record VehicleStamp(long eventTime, long updatedAt) {}
}
