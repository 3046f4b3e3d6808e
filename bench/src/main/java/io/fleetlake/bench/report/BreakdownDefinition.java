package io.fleetlake.bench.report;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A breakdown a bench run reports, before it is measured.
 *
 * @param key stable identifier in the JSON results
 * @param title as printed above the table
 */
public record BreakdownDefinition(String key, String title) {
    public BreakdownDefinition {
        requireNonNull(key, "key is null");
        requireNonNull(title, "title is null");
    }

    public Breakdown measured(String labelHeader, List<String> columns, List<Breakdown.Row> rows, List<String> notes) {
        return Breakdown.measured(key, title, labelHeader, columns, rows, notes);
    }

    public Breakdown notMeasured(String reason) {
        return Breakdown.notMeasured(key, title, reason);
    }
}
