package io.fleetlake.bench.report;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A table of figures beside the metrics, such as the latency of each hop or the CPU of each component: one labelled
 * row per item, one number (or nothing) per column. Either it has rows or the reason it has none, like a metric.
 *
 * @param key stable identifier in the JSON results, such as {@code latency.hops}
 * @param title as printed above the table
 * @param labelHeader header of the label column, such as {@code hop}
 * @param columns headers of the value columns, each with its unit, such as {@code p95 ms}
 * @param rows the rows; empty exactly when {@code notMeasured} is present
 * @param notes how the figures were measured, one sentence each
 * @param notMeasured why there are no rows
 */
public record Breakdown(
        String key,
        String title,
        String labelHeader,
        List<String> columns,
        List<Row> rows,
        List<String> notes,
        Optional<String> notMeasured) {
    public Breakdown {
        requireNonNull(key, "key is null");
        requireNonNull(title, "title is null");
        requireNonNull(labelHeader, "labelHeader is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        rows = List.copyOf(requireNonNull(rows, "rows is null"));
        notes = List.copyOf(requireNonNull(notes, "notes is null"));
        requireNonNull(notMeasured, "notMeasured is null");
        if (rows.isEmpty() == notMeasured.isEmpty()) {
            throw new IllegalArgumentException(
                    "Breakdown " + key + " needs either rows or the reason it was not measured, not both or neither");
        }
        for (Row row : rows) {
            if (row.values().size() != columns.size()) {
                throw new IllegalArgumentException("Row " + row.label() + " of " + key + " has "
                        + row.values().size() + " values for " + columns.size() + " columns");
            }
        }
    }

    public static Breakdown measured(
            String key, String title, String labelHeader, List<String> columns, List<Row> rows, List<String> notes) {
        return new Breakdown(key, title, labelHeader, columns, rows, notes, Optional.empty());
    }

    public static Breakdown notMeasured(String key, String title, String reason) {
        return new Breakdown(key, title, "", List.of(), List.of(), List.of(), Optional.of(reason));
    }

    /** The table as rows of text, the header first; an empty cell is {@code -}. */
    List<List<String>> textRows() {
        List<List<String>> text = new ArrayList<>();
        List<String> header = new ArrayList<>();
        header.add(labelHeader);
        header.addAll(columns);
        text.add(header);
        for (Row row : rows) {
            List<String> line = new ArrayList<>();
            line.add(row.label());
            row.values()
                    .forEach(value -> line.add(value.map(Metric::formatNumber).orElse("-")));
            text.add(line);
        }
        return text;
    }

    /**
     * One row.
     *
     * @param values one per column; empty where there is no figure
     */
    public record Row(String label, List<Optional<Double>> values) {
        public Row {
            requireNonNull(label, "label is null");
            values = List.copyOf(requireNonNull(values, "values is null"));
            for (Optional<Double> value : values) {
                if (value.isPresent() && !Double.isFinite(value.get())) {
                    throw new IllegalArgumentException("Row " + label + " has no finite value: " + value.get());
                }
            }
        }

        /** A row whose every value is present. */
        public static Row of(String label, double... values) {
            return new Row(label, Arrays.stream(values).mapToObj(Optional::of).toList());
        }
    }
}
