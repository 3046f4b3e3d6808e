package io.fleetlake.bench.report;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Every metric a bench run reports, with the brief's targets and the figures of the production system this project
 * replaces (1,100 msg/s average, 1,600 peak; device to Redis p50 1.8 s, p95 4.2 s, p99 6.1 s; exactly-once).
 */
public final class BenchMetrics {
    public static final String REFERENCE_THROUGHPUT = "1,100 msg/s avg, 1,600 peak";

    private static final Target THROUGHPUT_TARGET = Target.atLeast(30_000, ">= 30,000 msg/s");

    public static final MetricDefinition PRODUCER_RATE =
            MetricDefinition.of("throughput.producer-rate", "Kafka producer rate (idempotent, acks=all)", "msg/s");
    public static final MetricDefinition DRAIN_RATE = MetricDefinition.of(
                    "throughput.drain-rate",
                    "Kafka -> Flink -> Iceberg + Redis, backlog drain, first record to all committed",
                    "msg/s")
            .withTarget(THROUGHPUT_TARGET)
            .withReference(REFERENCE_THROUGHPUT);
    public static final MetricDefinition STEADY_RATE = MetricDefinition.of(
                    "throughput.steady-rate",
                    "Kafka -> Flink -> Iceberg + Redis, steady state (10 % to 90 % of the backlog)",
                    "msg/s")
            .withTarget(THROUGHPUT_TARGET)
            .withReference(REFERENCE_THROUGHPUT);
    public static final MetricDefinition PIPELINE_CPU =
            MetricDefinition.of("throughput.pipeline-cpu", "Pipeline JVM CPU per million records", "CPU-s");
    public static final MetricDefinition MQTT_PUBLISH_RATE =
            MetricDefinition.of("mqtt.publish-rate", "MQTT QoS 1 publish rate (acknowledged)", "msg/s");
    public static final MetricDefinition MQTT_END_TO_END_RATE = MetricDefinition.of(
                    "mqtt.end-to-end-rate",
                    "MQTT -> Connect -> Kafka -> Flink -> Iceberg, first publish to all committed",
                    "msg/s")
            .withReference(REFERENCE_THROUGHPUT);
    public static final MetricDefinition OFFERED_RATE =
            MetricDefinition.of("latency.offered-rate", "Latency run: offered MQTT rate achieved", "msg/s");
    public static final MetricDefinition REDIS_P50 = MetricDefinition.of(
                    "latency.redis.p50", "Device -> Redis p50", "ms")
            .withReference("1,800 ms");
    public static final MetricDefinition REDIS_P95 = MetricDefinition.of(
                    "latency.redis.p95", "Device -> Redis p95", "ms")
            .withTarget(Target.atMost(500, "<= 500 ms"))
            .withReference("4,200 ms");
    public static final MetricDefinition REDIS_P99 = MetricDefinition.of(
                    "latency.redis.p99", "Device -> Redis p99", "ms")
            .withTarget(Target.atMost(1_000, "<= 1,000 ms"))
            .withReference("6,100 ms");
    public static final MetricDefinition CONSUMER_LAG =
            MetricDefinition.of("latency.max-consumer-lag", "Latency run: highest committed consumer lag", "records");
    public static final MetricDefinition TIME_TRAVEL_COLD =
            MetricDefinition.of("time-travel.cold", "Time travel over one vehicle-day, cold (first after start)", "ms");
    public static final MetricDefinition TIME_TRAVEL_WARM =
            MetricDefinition.of("time-travel.warm", "Time travel over one vehicle-day, warm (median of 5)", "ms");
    public static final MetricDefinition PEER_PIPELINE_RATE =
            MetricDefinition.of("peer.pipeline-rate", "Side by side, same JSON backlog: fleet pipeline", "msg/s");
    public static final MetricDefinition PEER_SINK_RATE = MetricDefinition.of(
            "peer.sink-rate", "Side by side, same JSON backlog: Iceberg Kafka Connect sink", "msg/s");
    public static final MetricDefinition PEER_RATIO = MetricDefinition.of(
                    "peer.ratio", "Side by side: pipeline / Kafka Connect sink", "x")
            .withTarget(Target.atLeast(1.5, ">= 1.5 x"));

    private BenchMetrics() {}

    /** Device to committed in Iceberg, at a percentile; the target is the checkpoint interval + 5 s. */
    public static MetricDefinition icebergCommit(String percentile, Duration checkpointInterval) {
        return visibility(
                "latency.iceberg-commit." + percentile,
                "Device -> committed in Iceberg " + percentile,
                checkpointInterval);
    }

    /** Device to returned by a Trino query, at a percentile; the target is the checkpoint interval + 5 s. */
    public static MetricDefinition trinoVisible(String percentile, Duration checkpointInterval) {
        return visibility(
                "latency.trino-visible." + percentile, "Device -> returned by Trino " + percentile, checkpointInterval);
    }

    private static MetricDefinition visibility(String key, String name, Duration checkpointInterval) {
        long limit = checkpointInterval.plusSeconds(5).toMillis();
        return MetricDefinition.of(key, name, "ms")
                .withTarget(Target.atMost(
                        limit,
                        String.format(
                                Locale.ROOT,
                                "<= %,d ms (checkpoint %d s + 5 s)",
                                limit,
                                checkpointInterval.toSeconds())));
    }

    /** The definitions of every metric, in the order of the final table. */
    public static List<MetricDefinition> all(Duration checkpointInterval) {
        return List.of(
                PRODUCER_RATE,
                DRAIN_RATE,
                STEADY_RATE,
                PIPELINE_CPU,
                MQTT_PUBLISH_RATE,
                MQTT_END_TO_END_RATE,
                OFFERED_RATE,
                REDIS_P50,
                REDIS_P95,
                REDIS_P99,
                icebergCommit("p50", checkpointInterval),
                icebergCommit("p95", checkpointInterval),
                icebergCommit("p99", checkpointInterval),
                trinoVisible("p50", checkpointInterval),
                trinoVisible("p95", checkpointInterval),
                trinoVisible("p99", checkpointInterval),
                trinoVisible("max", checkpointInterval),
                CONSUMER_LAG,
                TIME_TRAVEL_COLD,
                TIME_TRAVEL_WARM,
                PEER_PIPELINE_RATE,
                PEER_SINK_RATE,
                PEER_RATIO);
    }
}
