package io.fleetlake.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchMetricsTest {
    @Test
    void keysAreUniqueAndCoverEveryFigureOfTheBrief() {
        List<MetricDefinition> all = BenchMetrics.all(Duration.ofSeconds(10));

        assertThat(all).extracting(MetricDefinition::key).doesNotHaveDuplicates();
        assertThat(all)
                .extracting(MetricDefinition::key)
                .contains(
                        "throughput.producer-rate",
                        "throughput.drain-rate",
                        "throughput.pipeline-cpu",
                        "throughput.state-growth",
                        "mqtt.end-to-end-rate",
                        "latency.offered-rate",
                        "latency.redis.p50",
                        "latency.redis.p95",
                        "latency.redis.p99",
                        "latency.iceberg-commit.p95",
                        "latency.trino-visible.p99",
                        "time-travel.cold",
                        "time-travel.warm",
                        "peer.pipeline-rate",
                        "peer.sink-rate",
                        "peer.ratio");
    }

    @Test
    void targetsAreThoseOfIssue13() {
        assertThat(BenchMetrics.DRAIN_RATE.target().orElseThrow().isMetBy(30_000))
                .isTrue();
        assertThat(BenchMetrics.DRAIN_RATE.target().orElseThrow().isMetBy(29_999))
                .isFalse();
        assertThat(BenchMetrics.STEADY_RATE.target().orElseThrow().threshold()).isEqualTo(30_000);
        assertThat(BenchMetrics.PIPELINE_CPU.target().orElseThrow().isMetBy(60)).isTrue();
        assertThat(BenchMetrics.PIPELINE_CPU.target().orElseThrow().isMetBy(60.1))
                .isFalse();
        assertThat(BenchMetrics.PEER_RATIO.target().orElseThrow().isMetBy(1.0)).isTrue();
        assertThat(BenchMetrics.PEER_RATIO.target().orElseThrow().isMetBy(0.99)).isFalse();
        assertThat(BenchMetrics.MQTT_END_TO_END_RATE.target().orElseThrow().threshold())
                .isEqualTo(5_000);
        assertThat(BenchMetrics.OFFERED_RATE.target().orElseThrow().isMetBy(2_000))
                .isTrue();
        assertThat(BenchMetrics.OFFERED_RATE.target().orElseThrow().isMetBy(1_999))
                .isFalse();
        assertThat(BenchMetrics.REDIS_P50.target().orElseThrow().threshold()).isEqualTo(200);
        assertThat(BenchMetrics.REDIS_P95.target().orElseThrow().threshold()).isEqualTo(500);
        assertThat(BenchMetrics.REDIS_P99.target().orElseThrow().threshold()).isEqualTo(1_000);
        assertThat(BenchMetrics.TIME_TRAVEL_WARM.target().orElseThrow().isMetBy(1_000))
                .isTrue();
        assertThat(BenchMetrics.TIME_TRAVEL_WARM.target().orElseThrow().isMetBy(1_001))
                .isFalse();
        assertThat(BenchMetrics.STATE_GROWTH.target().orElseThrow().isMetBy(0.9))
                .isTrue();
        assertThat(BenchMetrics.STATE_GROWTH.target().orElseThrow().isMetBy(0.89))
                .isFalse();
        assertThat(BenchMetrics.REDIS_P95.reference()).isEqualTo("4,200 ms");
    }

    @Test
    void figuresWithoutATargetInIssue13HaveNone() {
        Duration interval = Duration.ofSeconds(10);

        assertThat(BenchMetrics.icebergCommit("p50", interval).target()).isEmpty();
        assertThat(BenchMetrics.icebergCommit("p99", interval).target()).isEmpty();
        assertThat(BenchMetrics.trinoVisible("p95").target()).isEmpty();
        assertThat(BenchMetrics.TIME_TRAVEL_COLD.target()).isEmpty();
        assertThat(BenchMetrics.PRODUCER_RATE.target()).isEmpty();
    }

    @Test
    void visibilityTargetIsTheCheckpointIntervalPlusFiveSeconds() {
        MetricDefinition commit = BenchMetrics.icebergCommit("p95", Duration.ofSeconds(10));

        assertThat(commit.target().orElseThrow().threshold()).isEqualTo(15_000);
        assertThat(commit.target().orElseThrow().description()).isEqualTo("<= 15,000 ms (checkpoint 10 s + 5 s)");
        assertThat(BenchMetrics.icebergCommit("p95", Duration.ofSeconds(5))
                        .target()
                        .orElseThrow()
                        .threshold())
                .isEqualTo(10_000);
    }
}
