package io.fleetlake.flink.sinks;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.records.EnrichedPosition;
import java.io.Serializable;
import java.net.URI;
import java.time.Duration;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * Keeps the fleet's current state in Redis: per vehicle the newest position by event time with its enrichment (status,
 * route, next stop), in the vehicle hash, the GEO index and the last-seen sorted set. Updates are idempotent and
 * order-insensitive (newer event time wins, atomically in a Lua script), so the at-least-once replay after a failover
 * is harmless and no two-phase commit is needed; that keeps device-to-dashboard latency far below the checkpoint
 * interval. See
 * {@link RedisCurrentStateWriter} for batching and error handling.
 */
public final class RedisCurrentStateSink implements Sink<EnrichedPosition> {
    private static final long serialVersionUID = 1L;

    private final CurrentStateStore.Factory storeFactory;
    private final Settings settings;

    private RedisCurrentStateSink(CurrentStateStore.Factory storeFactory, Settings settings) {
        this.storeFactory = requireNonNull(storeFactory, "storeFactory is null");
        this.settings = requireNonNull(settings, "settings is null");
    }

    /** A sink writing to the Redis server at {@code redisUri} with the default settings. */
    public static RedisCurrentStateSink create(URI redisUri) {
        return new RedisCurrentStateSink(JedisCurrentStateStore.factory(redisUri), Settings.DEFAULT);
    }

    /** A sink writing to any store, for tests and other back ends. */
    public static RedisCurrentStateSink create(CurrentStateStore.Factory storeFactory, Settings settings) {
        return new RedisCurrentStateSink(storeFactory, settings);
    }

    @Override
    public SinkWriter<EnrichedPosition> createWriter(WriterInitContext context) {
        return new RedisCurrentStateWriter(
                storeFactory.open(),
                context.getProcessingTimeService(),
                context.metricGroup(),
                settings,
                duration -> Thread.sleep(duration.toMillis()));
    }

    /**
     * How the writer batches and retries.
     *
     * @param batchSize number of distinct vehicles that triggers a write
     * @param flushInterval the longest an update waits in a batch
     * @param maxAttempts attempts per batch before the task fails
     * @param initialBackoff wait after the first failed attempt; doubled after each further one
     * @param maxBackoff longest wait between attempts
     */
    public record Settings(
            int batchSize, Duration flushInterval, int maxAttempts, Duration initialBackoff, Duration maxBackoff)
            implements Serializable {
        public static final Settings DEFAULT =
                new Settings(500, Duration.ofMillis(100), 5, Duration.ofMillis(200), Duration.ofSeconds(2));

        public Settings {
            requireNonNull(flushInterval, "flushInterval is null");
            requireNonNull(initialBackoff, "initialBackoff is null");
            requireNonNull(maxBackoff, "maxBackoff is null");
            if (batchSize < 1) {
                throw new IllegalArgumentException("batchSize must be at least 1, got " + batchSize);
            }
            if (maxAttempts < 1) {
                throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
            }
            if (flushInterval.isZero() || flushInterval.isNegative()) {
                throw new IllegalArgumentException("flushInterval must be positive, got " + flushInterval);
            }
        }
    }
}
