package io.fleetlake.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class MetricTest {
    private static final MetricDefinition THROUGHPUT = MetricDefinition.of("t", "Throughput", "msg/s")
            .withTarget(Target.atLeast(30_000, ">= 30,000 msg/s"))
            .withReference("1,100 msg/s");
    private static final MetricDefinition LATENCY =
            MetricDefinition.of("l", "Latency p95", "ms").withTarget(Target.atMost(500, "<= 500 ms"));

    @Test
    void atLeastTargetIsMetFromTheThresholdOn() {
        assertThat(Metric.measured(THROUGHPUT, 30_000, "m").verdict()).isEqualTo(Verdict.MET);
        assertThat(Metric.measured(THROUGHPUT, 45_210.7, "m").verdict()).isEqualTo(Verdict.MET);
        assertThat(Metric.measured(THROUGHPUT, 29_999.9, "m").verdict()).isEqualTo(Verdict.MISSED);
    }

    @Test
    void atMostTargetIsMetUpToTheThreshold() {
        assertThat(Metric.measured(LATENCY, 500, "m").verdict()).isEqualTo(Verdict.MET);
        assertThat(Metric.measured(LATENCY, 12, "m").verdict()).isEqualTo(Verdict.MET);
        assertThat(Metric.measured(LATENCY, 501, "m").verdict()).isEqualTo(Verdict.MISSED);
    }

    @Test
    void aMetricWithoutTargetHasNoVerdictAndANotMeasuredOneSaysSo() {
        MetricDefinition plain = MetricDefinition.of("p", "Producer", "msg/s");

        assertThat(Metric.measured(plain, 1, "m").verdict()).isEqualTo(Verdict.NO_TARGET);
        Metric missing = Metric.notMeasured(THROUGHPUT, "the phase failed: boom");
        assertThat(missing.verdict()).isEqualTo(Verdict.NOT_MEASURED);
        assertThat(missing.formattedValue()).isEqualTo("not measured: the phase failed: boom");
        assertThat(missing.target()).isEqualTo(THROUGHPUT.target());
        assertThat(missing.reference()).isEqualTo("1,100 msg/s");
    }

    @Test
    void formatsValuesWithTheirUnit() {
        assertThat(Metric.measured(THROUGHPUT, 31_204.4, "m").formattedValue()).isEqualTo("31,204 msg/s");
        assertThat(Metric.measured(LATENCY, 42, "m").formattedValue()).isEqualTo("42 ms");
        assertThat(Metric.formatNumber(1.534)).isEqualTo("1.53");
        assertThat(Metric.formatNumber(12.34)).isEqualTo("12.3");
        assertThat(Metric.formatNumber(-3.0)).isEqualTo("-3");
    }

    @Test
    void needsExactlyOneOfValueAndReasonAndAFiniteValue() {
        assertThatThrownBy(() ->
                        new Metric("k", "n", Optional.of(1.0), "ms", Optional.empty(), "-", "m", Optional.of("why")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("either a value or the reason");
        assertThatThrownBy(() ->
                        new Metric("k", "n", Optional.empty(), "ms", Optional.empty(), "-", "m", Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Metric.measured(LATENCY, Double.NaN, "m"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("finite");
    }
}
