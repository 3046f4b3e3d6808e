package io.fleetlake.flink.sinks;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.net.URI;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Keeps the fleet's current state in Redis: per vehicle the newest position by event time with its enrichment (status,
 * route, next stop), in the vehicle hash, the GEO index and the last-seen sorted set. Updates are idempotent and
 * order-insensitive (newer event time wins, atomically in a Lua script), so applying one again is harmless and no
 * two-phase commit is needed; that keeps device-to-dashboard latency far below the checkpoint interval.
 *
 * <p>Guarantee: every update is applied at least once, and the current state converges to the newest position of
 * every vehicle. While Redis is unavailable the writer keeps the newest pending update per vehicle, retries with
 * backoff and never fails the task, so the checkpoints (and with them the Iceberg commits) go on; the pending updates
 * are part of the writer's checkpointed state, so a failover or restart during the outage loses none of them. See
 * {@link RedisCurrentStateWriter}.
 */
public final class RedisCurrentStateSink
        implements Sink<VehicleState>, SupportsWriterState<VehicleState, VehicleState> {
    private static final long serialVersionUID = 1L;

    private final CurrentStateStore.Factory storeFactory;
    private final Settings settings;

    private RedisCurrentStateSink(CurrentStateStore.Factory storeFactory, Settings settings) {
        this.storeFactory = requireNonNull(storeFactory, "storeFactory is null");
        this.settings = requireNonNull(settings, "settings is null");
    }

    /**
     * A sink writing to the Redis server at {@code redisUri} with the default settings; the URI carries the pipeline
     * role's credentials ({@code redis://user:password@host:port}) and may name a database number. Each vehicle's
     * state expires {@code vehicleTtl} after its last write.
     */
    public static RedisCurrentStateSink create(URI redisUri, Duration vehicleTtl) {
        return new RedisCurrentStateSink(
                JedisCurrentStateStore.factory(redisUri, Settings.DEFAULT.requestTimeout(), vehicleTtl),
                Settings.DEFAULT);
    }

    /** A sink writing to any store, for tests and other back ends. */
    public static RedisCurrentStateSink create(CurrentStateStore.Factory storeFactory, Settings settings) {
        return new RedisCurrentStateSink(storeFactory, settings);
    }

    @Override
    public StatefulSinkWriter<VehicleState, VehicleState> createWriter(WriterInitContext context) {
        return restoreWriter(context, List.of());
    }

    @Override
    public StatefulSinkWriter<VehicleState, VehicleState> restoreWriter(
            WriterInitContext context, Collection<VehicleState> recoveredState) {
        return new RedisCurrentStateWriter(
                storeFactory.open(),
                context.getProcessingTimeService(),
                context.metricGroup(),
                settings,
                recoveredState);
    }

    @Override
    public SimpleVersionedSerializer<VehicleState> getWriterStateSerializer() {
        return new VehicleStateSerializer();
    }

    /**
     * How the writer batches and retries.
     *
     * @param batchSize number of distinct vehicles that triggers a write, and the most vehicles sent in one request
     * @param flushInterval the longest an update waits before it is written while Redis answers
     * @param initialBackoff wait after the first failed write of an outage; doubled after each further one
     * @param maxBackoff longest wait between two attempts during an outage
     * @param outageReportInterval how often a continuing outage is logged again, with the number of pending vehicles
     * @param requestTimeout longest a connection attempt or a request to Redis may take; bounds how long a write (and
     *     so the flush before a checkpoint barrier) can block the task
     */
    public record Settings(
            int batchSize,
            Duration flushInterval,
            Duration initialBackoff,
            Duration maxBackoff,
            Duration outageReportInterval,
            Duration requestTimeout)
            implements Serializable {
        /**
         * Batches of up to 500 vehicles (one script call each), written at the latest 25 ms after the first update of
         * the batch: far below the dashboard's 2 s refresh, and few enough round trips at a low rate.
         */
        public static final Settings DEFAULT = new Settings(
                500,
                Duration.ofMillis(25),
                Duration.ofMillis(200),
                Duration.ofSeconds(30),
                Duration.ofMinutes(1),
                Duration.ofSeconds(2));

        public Settings {
            requirePositive(flushInterval, "flushInterval");
            requirePositive(initialBackoff, "initialBackoff");
            requirePositive(maxBackoff, "maxBackoff");
            requirePositive(outageReportInterval, "outageReportInterval");
            requirePositive(requestTimeout, "requestTimeout");
            if (batchSize < 1) {
                throw new IllegalArgumentException("batchSize must be at least 1, got " + batchSize);
            }
            if (maxBackoff.compareTo(initialBackoff) < 0) {
                throw new IllegalArgumentException("maxBackoff (" + maxBackoff + ") must not be shorter than"
                        + " initialBackoff (" + initialBackoff + ")");
            }
        }

        private static void requirePositive(Duration duration, String name) {
            requireNonNull(duration, name + " is null");
            if (duration.isZero() || duration.isNegative()) {
                throw new IllegalArgumentException(name + " must be positive, got " + duration);
            }
        }
    }
}
