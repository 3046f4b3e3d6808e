package io.fleetlake.bench.report;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * Everything a run reports.
 *
 * @param machine where it ran
 * @param settings the run's parameters, as printed
 * @param metrics every metric, measured or with the reason it was not
 * @param targets where the run stands on each target of issue 13
 * @param breakdowns the tables beside the metrics (latency per hop, CPU per component, rate per tenth of the backlog),
 *     each with rows or the reason it has none
 * @param notes how each figure was measured and what else was observed, one sentence each
 * @param profile where the pipeline's time went (flight recording summary), one line each; empty without
 *     {@code --profile}
 * @param loadAverageAtEnd load averages when the run ended
 */
public record BenchResults(
        MachineDescription machine,
        Map<String, String> settings,
        List<Metric> metrics,
        List<TargetStatus> targets,
        List<Breakdown> breakdowns,
        List<String> notes,
        List<String> profile,
        String loadAverageAtEnd) {
    public BenchResults {
        requireNonNull(machine, "machine is null");
        settings = Map.copyOf(requireNonNull(settings, "settings is null"));
        metrics = List.copyOf(requireNonNull(metrics, "metrics is null"));
        targets = List.copyOf(requireNonNull(targets, "targets is null"));
        breakdowns = List.copyOf(requireNonNull(breakdowns, "breakdowns is null"));
        notes = List.copyOf(requireNonNull(notes, "notes is null"));
        profile = List.copyOf(requireNonNull(profile, "profile is null"));
        requireNonNull(loadAverageAtEnd, "loadAverageAtEnd is null");
    }
}
