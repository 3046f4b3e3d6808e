package io.fleetlake.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ResultCollectorTest {
    private static final MetricDefinition FIRST = MetricDefinition.of("a", "A", "ms");
    private static final MetricDefinition SECOND = MetricDefinition.of("b", "B", "ms");
    private static final MetricDefinition THIRD = MetricDefinition.of("c", "C", "ms");

    @Test
    void everyDefinitionGetsAValueOrAReasonInDefinitionOrder() {
        ResultCollector results = new ResultCollector();
        results.add(Metric.measured(SECOND, 7, "measured"));
        results.notMeasured(List.of(FIRST, SECOND), "the phase failed: boom");

        List<Metric> metrics = results.metrics(List.of(FIRST, SECOND, THIRD), "the run ended before this phase");

        assertThat(metrics).extracting(Metric::key).containsExactly("a", "b", "c");
        assertThat(metrics.get(0).notMeasured()).contains("the phase failed: boom");
        assertThat(metrics.get(1).value()).contains(7.0);
        assertThat(metrics.get(2).notMeasured()).contains("the run ended before this phase");
    }

    @Test
    void keepsNotesAndProfileLinesInOrder() {
        ResultCollector results = new ResultCollector();
        results.note("one");
        results.note("two");
        results.profileLine("top");

        assertThat(results.notes()).containsExactly("one", "two");
        assertThat(results.profile()).containsExactly("top");
    }

    @Test
    void everyBreakdownGetsRowsOrAReasonInDefinitionOrderAndWindowsKeepTheFirst() {
        BreakdownDefinition hops = new BreakdownDefinition("hops", "Hops");
        BreakdownDefinition cpu = new BreakdownDefinition("cpu", "CPU");
        BreakdownDefinition idle = new BreakdownDefinition("idle", "Idle");
        ResultCollector results = new ResultCollector();
        results.breakdown(
                cpu.measured("component", List.of("drain"), List.of(Breakdown.Row.of("pipeline", 120)), List.of()));
        results.breakdownsNotMeasured(List.of(hops, cpu), "the latency phase failed");
        Instant start = Instant.parse("2026-12-01T12:00:00Z");
        results.window(new ResultCollector.Window("drain", start, start.plusSeconds(10), OptionalLong.of(1_000)));
        results.window(new ResultCollector.Window("drain", start, start.plusSeconds(99), OptionalLong.of(1)));

        List<Breakdown> breakdowns = results.breakdowns(List.of(hops, cpu, idle), "the run ended before this phase");

        assertThat(breakdowns).extracting(Breakdown::key).containsExactly("hops", "cpu", "idle");
        assertThat(breakdowns.get(0).notMeasured()).contains("the latency phase failed");
        assertThat(breakdowns.get(1).rows()).hasSize(1);
        assertThat(breakdowns.get(2).notMeasured()).contains("the run ended before this phase");
        assertThat(results.windows()).singleElement().satisfies(window -> assertThat(window.length())
                .isEqualTo(Duration.ofSeconds(10)));
    }
}
