package io.fleetlake.bench.report;

import java.util.ArrayList;
import java.util.List;

/** The final table of a run as plain text and as Markdown: metric, measured, target, reference system, met/missed. */
public final class ResultTable {
    static final List<String> HEADER = List.of("Metric", "Measured", "Target", "Reference system", "Met/missed");

    private ResultTable() {}

    /** Aligned plain-text columns for the console. */
    public static String text(List<Metric> metrics) {
        List<List<String>> rows = rows(metrics);
        int[] widths = new int[HEADER.size()];
        for (List<String> row : rows) {
            for (int column = 0; column < row.size(); column++) {
                widths[column] = Math.max(widths[column], row.get(column).length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (int index = 0; index < rows.size(); index++) {
            List<String> row = rows.get(index);
            StringBuilder line = new StringBuilder();
            for (int column = 0; column < row.size(); column++) {
                boolean last = column == row.size() - 1;
                line.append(last ? row.get(column) : pad(row.get(column), widths[column]))
                        .append(last ? "" : "  ");
            }
            text.append(line.toString().stripTrailing()).append('\n');
            if (index == 0) {
                int total = 0;
                for (int width : widths) {
                    total += width + 2;
                }
                text.append("-".repeat(total - 2)).append('\n');
            }
        }
        return text.toString();
    }

    /** A Markdown table. */
    public static String markdown(List<Metric> metrics) {
        List<List<String>> rows = rows(metrics);
        StringBuilder markdown = new StringBuilder();
        for (int index = 0; index < rows.size(); index++) {
            markdown.append("| ")
                    .append(String.join(
                            " | ",
                            rows.get(index).stream()
                                    .map(ResultTable::escapeMarkdown)
                                    .toList()))
                    .append(" |\n");
            if (index == 0) {
                markdown.append("|").append(" --- |".repeat(HEADER.size())).append('\n');
            }
        }
        return markdown.toString();
    }

    private static List<List<String>> rows(List<Metric> metrics) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADER);
        for (Metric metric : metrics) {
            rows.add(List.of(
                    metric.name(),
                    metric.formattedValue(),
                    metric.target().map(Target::description).orElse("-"),
                    metric.reference(),
                    metric.verdict().label()));
        }
        return rows;
    }

    private static String pad(String value, int width) {
        return value + " ".repeat(width - value.length());
    }

    private static String escapeMarkdown(String value) {
        return value.replace("|", "\\|");
    }
}
