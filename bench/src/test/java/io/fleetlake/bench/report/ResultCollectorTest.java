package io.fleetlake.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
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
}
