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
                        "mqtt.end-to-end-rate",
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
    void targetsAreTheBriefs() {
        assertThat(BenchMetrics.DRAIN_RATE.target().orElseThrow().isMetBy(30_000))
                .isTrue();
        assertThat(BenchMetrics.DRAIN_RATE.target().orElseThrow().isMetBy(29_999))
                .isFalse();
        assertThat(BenchMetrics.REDIS_P95.target().orElseThrow().threshold()).isEqualTo(500);
        assertThat(BenchMetrics.REDIS_P99.target().orElseThrow().threshold()).isEqualTo(1_000);
        assertThat(BenchMetrics.PEER_RATIO.target().orElseThrow().threshold()).isEqualTo(1.5);
        assertThat(BenchMetrics.REDIS_P95.reference()).isEqualTo("4,200 ms");
    }

    @Test
    void visibilityTargetIsTheCheckpointIntervalPlusFiveSeconds() {
        MetricDefinition commit = BenchMetrics.icebergCommit("p95", Duration.ofSeconds(10));

        assertThat(commit.target().orElseThrow().threshold()).isEqualTo(15_000);
        assertThat(commit.target().orElseThrow().description()).isEqualTo("<= 15,000 ms (checkpoint 10 s + 5 s)");
        assertThat(BenchMetrics.trinoVisible("p99", Duration.ofSeconds(5))
                        .target()
                        .orElseThrow()
                        .threshold())
                .isEqualTo(10_000);
    }
}
