package io.fleetlake.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BreakdownTest {
    @Test
    void aBreakdownHasRowsOrTheReasonItHasNone() {
        assertThatThrownBy(() -> new Breakdown("k", "t", "l", List.of(), List.of(), List.of(), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("either rows or the reason");
        assertThatThrownBy(() -> Breakdown.measured(
                        "k", "t", "l", List.of("a", "b"), List.of(Breakdown.Row.of("x", 1)), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Row x of k has 1 values for 2 columns");
        assertThatThrownBy(() -> Breakdown.Row.of("x", Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void printsAnAlignedTableWithADashForAMissingValue() {
        Breakdown breakdown = Breakdown.measured(
                "cpu",
                "CPU per million",
                "component",
                List.of("drain", "latency"),
                List.of(
                        Breakdown.Row.of("pipeline", 118.4, 1_523),
                        new Breakdown.Row("peer", List.of(Optional.empty(), Optional.of(2.5)))),
                List.of("From /proc."));

        assertThat(ResultTable.breakdownText(breakdown).lines().toList())
                .containsExactly(
                        "CPU per million",
                        "component  drain  latency",
                        "-------------------------",
                        "pipeline   118    1,523",
                        "peer       -      2.50",
                        "  From /proc.");
        assertThat(ResultTable.breakdownText(Breakdown.notMeasured("k", "Title", "no phase ran")))
                .isEqualTo("Title\n  not measured: no phase ran\n");
    }
}
