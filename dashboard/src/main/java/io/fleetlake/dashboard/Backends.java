package io.fleetlake.dashboard;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.dashboard.history.HistoryReader;
import io.fleetlake.dashboard.history.TrinoHistoryReader;
import io.fleetlake.dashboard.pipeline.FlinkRestCountersReader;
import io.fleetlake.dashboard.pipeline.PipelineCountersReader;
import io.fleetlake.dashboard.redis.CurrentStateReader;
import io.fleetlake.dashboard.redis.JedisCurrentStateReader;
import io.fleetlake.flink.rest.FlinkRestClient;
import java.time.Duration;

/**
 * The systems the dashboard reads, behind their seams: production clients, or fakes in tests.
 *
 * @param currentState the live fleet in Redis
 * @param history the Iceberg history through Trino
 * @param counters the running pipeline's counters through the Flink REST API
 * @param resources closes what the readers hold open (the Redis connection pool)
 */
record Backends(
        CurrentStateReader currentState, HistoryReader history, PipelineCountersReader counters, Resources resources) {
    static final Duration FLINK_CONNECT_TIMEOUT = Duration.ofSeconds(1);
    static final Duration FLINK_CALL_TIMEOUT = Duration.ofSeconds(2);

    Backends {
        requireNonNull(currentState, "currentState is null");
        requireNonNull(history, "history is null");
        requireNonNull(counters, "counters is null");
        requireNonNull(resources, "resources is null");
    }

    /** Clients of the configured Redis, Trino and Flink; none connects before its first request. */
    static Backends production(DashboardConfig config, ObjectMapper mapper) {
        JedisCurrentStateReader redis = JedisCurrentStateReader.connect(config.redisUri());
        return new Backends(
                redis,
                new TrinoHistoryReader(config.trinoConnections()),
                new FlinkRestCountersReader(flinkRest(config)::get),
                redis::close);
    }

    /** Short timeouts: the summary must not wait for Flink. */
    private static FlinkRestClient flinkRest(DashboardConfig config) {
        FlinkRestClient.Builder builder = FlinkRestClient.builder(
                        config.flinkRestUri().toString())
                .connectTimeout(FLINK_CONNECT_TIMEOUT)
                .callTimeout(FLINK_CALL_TIMEOUT);
        config.flinkRestTls().ifPresent(builder::tls);
        return builder.build();
    }

    /** What the readers hold open; closing never throws a checked exception. */
    @FunctionalInterface
    interface Resources extends AutoCloseable {
        @Override
        void close();
    }
}
