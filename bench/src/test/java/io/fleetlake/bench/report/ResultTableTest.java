package io.fleetlake.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultTableTest {
    private static final MetricDefinition RATE = MetricDefinition.of("rate", "Drain rate", "msg/s")
            .withTarget(Target.atLeast(30_000, ">= 30,000 msg/s"))
            .withReference("1,100 msg/s");
    private static final MetricDefinition P95 = MetricDefinition.of("p95", "Device -> Redis p95", "ms")
            .withTarget(Target.atMost(500, "<= 500 ms"))
            .withReference("4,200 ms");

    @Test
    void textTableHasHeaderRuleAndAlignedColumns() {
        String text = ResultTable.text(
                List.of(Metric.measured(RATE, 31_204, "m"), Metric.notMeasured(P95, "Redis was down")));

        assertThat(text.lines().toList())
                .containsExactly(
                        "Metric               Measured                      Target           Reference system  Met/missed",
                        "-".repeat(98),
                        "Drain rate           31,204 msg/s                  >= 30,000 msg/s  1,100 msg/s       met",
                        "Device -> Redis p95  not measured: Redis was down  <= 500 ms        4,200 ms          not measured");
    }

    @Test
    void markdownTableEscapesPipes() {
        String markdown =
                ResultTable.markdown(List.of(Metric.notMeasured(RATE, "a | b"), Metric.measured(P95, 900, "m")));

        assertThat(markdown.lines().toList())
                .containsExactly(
                        "| Metric | Measured | Target | Reference system | Met/missed |",
                        "| --- | --- | --- | --- | --- |",
                        "| Drain rate | not measured: a \\| b | >= 30,000 msg/s | 1,100 msg/s | not measured |",
                        "| Device -> Redis p95 | 900 ms | <= 500 ms | 4,200 ms | MISSED |");
    }

    @Test
    void everyMetricOfARunHasARowWithAValueOrTheReason() {
        List<Metric> metrics = ResultsFixture.metrics();

        String text = ResultTable.text(metrics);

        assertThat(metrics).hasSize(BenchMetrics.all(Duration.ofSeconds(10)).size());
        for (Metric metric : metrics) {
            assertThat(text).contains(metric.name() + " ");
        }
        assertThat(text.lines().filter(line -> line.contains("not measured: the phase failed")))
                .hasSize((int) metrics.stream()
                        .filter(metric -> metric.value().isEmpty())
                        .count());
    }
}
