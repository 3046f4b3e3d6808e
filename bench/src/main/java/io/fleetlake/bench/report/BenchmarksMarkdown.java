package io.fleetlake.bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.TreeMap;

/**
 * Appends a run to BENCHMARKS.md: the machine, the settings, the targets of issue 13, the metrics, the breakdowns
 * (latency per hop, CPU per component, rate per tenth of the backlog), the notes and the profile.
 */
public final class BenchmarksMarkdown {
    static final String FILE_HEADER = "# Benchmarks\n\nSections below are appended by `fleet bench` (newest last).\n";
    private static final DateTimeFormatter DATE =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    private BenchmarksMarkdown() {}

    /** The section of one run. */
    public static String section(BenchResults results) {
        MachineDescription machine = results.machine();
        StringBuilder section = new StringBuilder();
        section.append("\n## fleet bench, ").append(DATE.format(machine.date())).append("\n\n");
        section.append("Machine: ")
                .append(machine.cores())
                .append(" cores, ")
                .append(machine.memory())
                .append(" memory, ")
                .append(machine.jdk())
                .append(", ")
                .append(machine.operatingSystem())
                .append(". Load average (1/5/15 min) at the start ")
                .append(machine.loadAverage())
                .append(", at the end ")
                .append(results.loadAverageAtEnd())
                .append(".\n\n");
        section.append("Settings: ");
        Map<String, String> settings = new TreeMap<>(results.settings());
        section.append(String.join(
                        ", ",
                        settings.entrySet().stream()
                                .map(entry -> "`" + entry.getKey() + "` " + entry.getValue())
                                .toList()))
                .append(".\n\n");
        if (!results.targets().isEmpty()) {
            section.append(ResultTable.targetsMarkdown(results.targets())).append('\n');
        }
        section.append(ResultTable.markdown(results.metrics()));
        results.breakdowns()
                .forEach(breakdown -> section.append('\n').append(ResultTable.breakdownMarkdown(breakdown)));
        if (!results.notes().isEmpty()) {
            section.append("\nHow it was measured:\n\n");
            results.notes().forEach(note -> section.append("- ").append(note).append('\n'));
        }
        if (!results.profile().isEmpty()) {
            section.append("\nWhere the pipeline's time goes (flight recording of the throughput phase):\n\n```\n");
            results.profile().forEach(line -> section.append(line).append('\n'));
            section.append("```\n");
        }
        return section.toString();
    }

    /** Appends the run's section, creating the file with its header when it does not exist. */
    public static void append(Path file, BenchResults results) {
        try {
            if (!Files.exists(file)) {
                Files.writeString(file, FILE_HEADER);
            }
            Files.writeString(file, section(results), StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot append the results to " + file, e);
        }
    }
}
