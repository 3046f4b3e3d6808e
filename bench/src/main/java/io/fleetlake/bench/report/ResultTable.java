package io.fleetlake.bench.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The tables of a run as plain text and as Markdown: the metrics (metric, measured, target, reference system,
 * met/missed), the targets of issue 13, and the breakdowns.
 */
public final class ResultTable {
    static final List<String> HEADER = List.of("Metric", "Measured", "Target", "Reference system", "Met/missed");
    static final List<String> TARGETS_HEADER = List.of("Issue 13 figure", "Target", "Measured", "Verdict");

    private ResultTable() {}

    /** The metrics as aligned plain-text columns for the console. */
    public static String text(List<Metric> metrics) {
        return aligned(rows(metrics));
    }

    /** The metrics as a Markdown table. */
    public static String markdown(List<Metric> metrics) {
        return markdownTable(rows(metrics));
    }

    /** The targets of issue 13 as aligned plain text. */
    public static String targetsText(List<TargetStatus> targets) {
        return aligned(targetRows(targets));
    }

    public static String targetsMarkdown(List<TargetStatus> targets) {
        return markdownTable(targetRows(targets));
    }

    /** A breakdown as aligned plain text under its title, or its title and why it was not measured. */
    public static String breakdownText(Breakdown breakdown) {
        StringBuilder text = new StringBuilder(breakdown.title()).append('\n');
        if (breakdown.notMeasured().isPresent()) {
            return text.append("  not measured: ")
                    .append(breakdown.notMeasured().get())
                    .append('\n')
                    .toString();
        }
        text.append(aligned(breakdown.textRows()));
        breakdown.notes().forEach(note -> text.append("  ").append(note).append('\n'));
        return text.toString();
    }

    public static String breakdownMarkdown(Breakdown breakdown) {
        StringBuilder markdown =
                new StringBuilder("**").append(breakdown.title()).append("**\n\n");
        if (breakdown.notMeasured().isPresent()) {
            return markdown.append("Not measured: ")
                    .append(breakdown.notMeasured().get())
                    .append('\n')
                    .toString();
        }
        markdown.append(markdownTable(breakdown.textRows()));
        if (!breakdown.notes().isEmpty()) {
            markdown.append('\n');
            breakdown.notes().forEach(note -> markdown.append("- ").append(note).append('\n'));
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

    private static List<List<String>> targetRows(List<TargetStatus> targets) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(TARGETS_HEADER);
        for (TargetStatus target : targets) {
            rows.add(List.of(
                    target.figure(),
                    target.target(),
                    target.measured(),
                    target.verdict().label()));
        }
        return rows;
    }

    /** Rows as aligned columns, the first row a header underlined with dashes. */
    static String aligned(List<List<String>> rows) {
        int columns = rows.get(0).size();
        int[] widths = new int[columns];
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

    private static String markdownTable(List<List<String>> rows) {
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
                markdown.append("|").append(" --- |".repeat(rows.get(0).size())).append('\n');
            }
        }
        return markdown.toString();
    }

    private static String pad(String value, int width) {
        return value + " ".repeat(width - value.length());
    }

    private static String escapeMarkdown(String value) {
        return value.replace("|", "\\|");
    }
}
