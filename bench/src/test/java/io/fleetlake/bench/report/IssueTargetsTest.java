package io.fleetlake.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IssueTargetsTest {
    private static final Duration CHECKPOINT = Duration.ofSeconds(10);

    @Test
    void theTableHasTheNineTargetsOfTheIssueInItsOrder() {
        List<TargetStatus> targets = IssueTargets.evaluate(allMeasured(1), Map.of(), CHECKPOINT);

        assertThat(targets)
                .extracting(TargetStatus::figure)
                .containsExactly(
                        "pipeline drain Kafka -> Iceberg + Redis (steady)",
                        "pipeline CPU per million records",
                        "side by side with the Iceberg Kafka Connect sink, same records, same run",
                        "MQTT -> committed in Iceberg, sustained",
                        "latency run: rate achieved of 2,000 msg/s asked",
                        "device -> Redis p50 / p95 / p99",
                        "device -> committed in Iceberg p95",
                        "time travel, one vehicle-day, warm",
                        "rate as state grows");
        assertThat(targets)
                .extracting(TargetStatus::target)
                .containsExactly(
                        ">= 30,000 msg/s",
                        "<= 60 CPU-s",
                        ">= 1.0 x",
                        ">= 5,000 msg/s for 5 minutes",
                        "2,000 msg/s",
                        "<= 0.2 / 0.5 / 1 s at 2,000 msg/s over MQTT",
                        "<= checkpoint interval + 5 s (15 s)",
                        "<= 1 s",
                        "a 3M-record run's steady rate within 10 % of the 300k run");
    }

    @Test
    void aRowIsMetOnlyWhenEveryFigureIsMeasuredAndMet() {
        List<Metric> metrics = replace(
                allMeasured(1),
                Metric.measured(BenchMetrics.DRAIN_RATE, 31_000, "m"),
                Metric.measured(BenchMetrics.STEADY_RATE, 33_000, "m"),
                Metric.measured(BenchMetrics.REDIS_P50, 150, "m"),
                Metric.measured(BenchMetrics.REDIS_P95, 600, "m"),
                Metric.notMeasured(BenchMetrics.TIME_TRAVEL_WARM, "Trino failed"));

        List<TargetStatus> targets = IssueTargets.evaluate(metrics, Map.of(), CHECKPOINT);

        assertThat(targets.get(0).verdict()).isEqualTo(Verdict.MET);
        assertThat(targets.get(0).measured()).isEqualTo("31,000 / 33,000 msg/s");
        assertThat(targets.get(5).verdict()).isEqualTo(Verdict.MISSED);
        assertThat(targets.get(5).measured()).isEqualTo("150 / 600 / 1 ms");
        assertThat(targets.get(7).verdict()).isEqualTo(Verdict.NOT_MEASURED);
        assertThat(targets.get(7).measured()).isEqualTo("not measured: Trino failed");
    }

    @Test
    void theMqttRateCountsOnlyWhenThePhaseLastedFiveMinutes() {
        List<Metric> metrics = replace(allMeasured(1), Metric.measured(BenchMetrics.MQTT_END_TO_END_RATE, 6_000, "m"));

        TargetStatus shortPhase = IssueTargets.evaluate(
                        metrics, Map.of(IssueTargets.MQTT_WINDOW, Duration.ofSeconds(90)), CHECKPOINT)
                .get(3);
        TargetStatus longPhase = IssueTargets.evaluate(
                        metrics, Map.of(IssueTargets.MQTT_WINDOW, Duration.ofMinutes(6)), CHECKPOINT)
                .get(3);
        TargetStatus slow = IssueTargets.evaluate(
                        replace(metrics, Metric.measured(BenchMetrics.MQTT_END_TO_END_RATE, 1_000, "m")),
                        Map.of(IssueTargets.MQTT_WINDOW, Duration.ofSeconds(90)),
                        CHECKPOINT)
                .get(3);

        assertThat(shortPhase.verdict()).isEqualTo(Verdict.NOT_MEASURED);
        assertThat(shortPhase.measured())
                .contains("6,000 msg/s over a 1.5 min phase")
                .contains("5 minutes");
        assertThat(longPhase.verdict()).isEqualTo(Verdict.MET);
        assertThat(slow.verdict()).isEqualTo(Verdict.MISSED);
    }

    /** Every metric measured with the same value. */
    private static List<Metric> allMeasured(double value) {
        return BenchMetrics.all(CHECKPOINT).stream()
                .map(definition -> Metric.measured(definition, value, "m"))
                .toList();
    }

    private static List<Metric> replace(List<Metric> metrics, Metric... replacements) {
        List<Metric> replaced = new ArrayList<>(metrics);
        for (Metric replacement : replacements) {
            for (int index = 0; index < replaced.size(); index++) {
                if (replaced.get(index).key().equals(replacement.key())) {
                    replaced.set(index, replacement);
                }
            }
        }
        return replaced;
    }
}
