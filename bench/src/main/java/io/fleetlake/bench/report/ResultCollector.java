package io.fleetlake.bench.report;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Gathers the metrics and notes of the phases as they finish. Thread-safe. */
public final class ResultCollector {
    private final Map<String, Metric> metrics = new LinkedHashMap<>();
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

    public synchronized List<String> notes() {
        return List.copyOf(notes);
    }

    public synchronized List<String> profile() {
        return List.copyOf(profile);
    }
}
