package io.fleetlake.bench.report;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** Gathers the metrics, breakdowns, measured windows and notes of the phases as they finish. Thread-safe. */
public final class ResultCollector {
    private final Map<String, Metric> metrics = new LinkedHashMap<>();
    private final Map<String, Breakdown> breakdowns = new LinkedHashMap<>();
    private final Map<String, Window> windows = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();
    private final List<String> profile = new ArrayList<>();

    public synchronized void add(Metric metric) {
        metrics.put(metric.key(), requireNonNull(metric, "metric is null"));
    }

    /** Records each definition that has no value yet as not measured, for the given reason. */
    public synchronized void notMeasured(List<MetricDefinition> definitions, String reason) {
        for (MetricDefinition definition : definitions) {
            metrics.putIfAbsent(definition.key(), Metric.notMeasured(definition, reason));
        }
    }

    /** Adds a breakdown, replacing one with the same key. */
    public synchronized void breakdown(Breakdown breakdown) {
        breakdowns.put(breakdown.key(), requireNonNull(breakdown, "breakdown is null"));
    }

    /** Records each breakdown that was not recorded yet as not measured, for the given reason. */
    public synchronized void breakdownsNotMeasured(List<BreakdownDefinition> definitions, String reason) {
        for (BreakdownDefinition definition : definitions) {
            breakdowns.putIfAbsent(definition.key(), definition.notMeasured(reason));
        }
    }

    /**
     * Records a window of the run that the CPU of every component is reported for, such as a phase or its drain.
     * The first window recorded under a name is kept.
     */
    public synchronized void window(Window window) {
        windows.putIfAbsent(window.name(), requireNonNull(window, "window is null"));
    }

    public synchronized void note(String note) {
        notes.add(requireNonNull(note, "note is null"));
    }

    public synchronized void profileLine(String line) {
        profile.add(requireNonNull(line, "line is null"));
    }

    /**
     * The metrics in the order of {@code definitions}; a definition nothing was recorded for is reported as not
     * measured with {@code missingReason}.
     */
    public synchronized List<Metric> metrics(List<MetricDefinition> definitions, String missingReason) {
        List<Metric> ordered = new ArrayList<>();
        for (MetricDefinition definition : definitions) {
            ordered.add(metrics.getOrDefault(definition.key(), Metric.notMeasured(definition, missingReason)));
        }
        return ordered;
    }

    /**
     * The breakdowns in the order of {@code definitions}; one nothing was recorded for is reported as not measured with
     * {@code missingReason}.
     */
    public synchronized List<Breakdown> breakdowns(List<BreakdownDefinition> definitions, String missingReason) {
        List<Breakdown> ordered = new ArrayList<>();
        for (BreakdownDefinition definition : definitions) {
            ordered.add(breakdowns.getOrDefault(definition.key(), definition.notMeasured(missingReason)));
        }
        return ordered;
    }

    /** The windows in the order they were recorded. */
    public synchronized List<Window> windows() {
        return List.copyOf(windows.values());
    }

    public synchronized List<String> notes() {
        return List.copyOf(notes);
    }

    public synchronized List<String> profile() {
        return List.copyOf(profile);
    }

    /**
     * A stretch of the run the CPU is reported for.
     *
     * @param name as printed, such as {@code throughput (drain)}
     * @param records what was processed in it (rows committed, messages sent), for the CPU per million records;
     *     empty when nothing was (the idle minute)
     */
    public record Window(String name, Instant from, Instant to, OptionalLong records) {
        public Window {
            requireNonNull(name, "name is null");
            requireNonNull(from, "from is null");
            requireNonNull(to, "to is null");
            requireNonNull(records, "records is null");
            if (!to.isAfter(from)) {
                throw new IllegalArgumentException(
                        "Window " + name + " must end after it starts: " + from + " to " + to);
            }
        }

        public Duration length() {
            return Duration.between(from, to);
        }
    }
}
