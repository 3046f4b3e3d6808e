package io.fleetlake.bench.report;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The targets of issue 13 ("faster than the system it replaces and than the Iceberg Kafka Connect sink"), in the
 * issue's order and words, each judged from the metrics of a run. A row is met only when all its figures were measured
 * and met, missed when one was measured and missed, and otherwise not measured with the reasons.
 */
public final class IssueTargets {
    /** The MQTT target holds only when the rate is sustained this long. */
    public static final Duration MQTT_SUSTAINED = Duration.ofMinutes(5);

    /** Name of the MQTT phase's window in {@link ResultCollector#window}. */
    public static final String MQTT_WINDOW = "MQTT";

    private IssueTargets() {}

    /** The rows of the table, the checkpoint interval deciding the Iceberg visibility target. */
    static List<Definition> definitions(Duration checkpointInterval) {
        return List.of(
                new Definition(
                        "pipeline drain Kafka -> Iceberg + Redis (steady)",
                        ">= 30,000 msg/s",
                        List.of(BenchMetrics.DRAIN_RATE.key(), BenchMetrics.STEADY_RATE.key()),
                        Optional.empty()),
                new Definition(
                        "pipeline CPU per million records",
                        "<= 60 CPU-s",
                        List.of(BenchMetrics.PIPELINE_CPU.key()),
                        Optional.empty()),
                new Definition(
                        "side by side with the Iceberg Kafka Connect sink, same records, same run",
                        ">= 1.0 x",
                        List.of(BenchMetrics.PEER_RATIO.key()),
                        Optional.empty()),
                new Definition(
                        "MQTT -> committed in Iceberg, sustained",
                        ">= 5,000 msg/s for 5 minutes",
                        List.of(BenchMetrics.MQTT_END_TO_END_RATE.key()),
                        Optional.of(MQTT_SUSTAINED)),
                new Definition(
                        "latency run: rate achieved of 2,000 msg/s asked",
                        "2,000 msg/s",
                        List.of(BenchMetrics.OFFERED_RATE.key()),
                        Optional.empty()),
                new Definition(
                        "device -> Redis p50 / p95 / p99",
                        "<= 0.2 / 0.5 / 1 s at 2,000 msg/s over MQTT",
                        List.of(
                                BenchMetrics.REDIS_P50.key(),
                                BenchMetrics.REDIS_P95.key(),
                                BenchMetrics.REDIS_P99.key()),
                        Optional.empty()),
                new Definition(
                        "device -> committed in Iceberg p95",
                        String.format(
                                Locale.ROOT,
                                "<= checkpoint interval + 5 s (%d s)",
                                checkpointInterval.plusSeconds(5).toSeconds()),
                        List.of(BenchMetrics.icebergCommit("p95", checkpointInterval)
                                .key()),
                        Optional.empty()),
                new Definition(
                        "time travel, one vehicle-day, warm",
                        "<= 1 s",
                        List.of(BenchMetrics.TIME_TRAVEL_WARM.key()),
                        Optional.empty()),
                new Definition(
                        "rate as state grows",
                        "a 3M-record run's steady rate within 10 % of the 300k run",
                        List.of(BenchMetrics.STATE_GROWTH.key()),
                        Optional.empty()));
    }

    /**
     * Judges every target.
     *
     * @param windows how long each phase that reported a window lasted, by name ({@link #MQTT_WINDOW} for the
     *     sustained MQTT target)
     */
    public static List<TargetStatus> evaluate(
            List<Metric> metrics, Map<String, Duration> windows, Duration checkpointInterval) {
        requireNonNull(metrics, "metrics is null");
        requireNonNull(windows, "windows is null");
        Map<String, Metric> byKey = metrics.stream().collect(Collectors.toMap(Metric::key, Function.identity()));
        List<TargetStatus> statuses = new ArrayList<>();
        for (Definition definition : definitions(checkpointInterval)) {
            List<Metric> figures = new ArrayList<>();
            for (String key : definition.metricKeys()) {
                Metric metric = byKey.get(key);
                if (metric == null) {
                    throw new IllegalArgumentException(
                            "The run reported no metric " + key + " for the target \"" + definition.figure() + "\"");
                }
                figures.add(metric);
            }
            statuses.add(judge(definition, figures, windows));
        }
        return statuses;
    }

    private static TargetStatus judge(Definition definition, List<Metric> figures, Map<String, Duration> windows) {
        List<Metric> measured =
                figures.stream().filter(metric -> metric.value().isPresent()).toList();
        List<String> reasons = figures.stream()
                .flatMap(metric -> metric.notMeasured().stream())
                .distinct()
                .toList();
        String text;
        if (measured.isEmpty()) {
            text = "not measured: " + String.join("; ", reasons);
        } else {
            text = measured.stream()
                            .map(metric -> Metric.formatNumber(metric.value().orElseThrow()))
                            .collect(Collectors.joining(" / "))
                    + " " + measured.get(0).unit();
            if (!reasons.isEmpty()) {
                text += " (not measured: " + String.join("; ", reasons) + ")";
            }
        }
        Verdict verdict;
        if (measured.stream().anyMatch(metric -> metric.verdict() == Verdict.MISSED)) {
            verdict = Verdict.MISSED;
        } else if (!reasons.isEmpty()) {
            verdict = Verdict.NOT_MEASURED;
        } else {
            verdict = Verdict.MET;
        }
        if (definition.sustainedFor().isPresent()) {
            Duration required = definition.sustainedFor().get();
            Optional<Duration> lasted = Optional.ofNullable(windows.get(MQTT_WINDOW));
            if (lasted.isPresent()) {
                text += String.format(
                        Locale.ROOT, " over a %.1f min phase", lasted.get().toMillis() / 60_000.0);
            }
            if (verdict == Verdict.MET
                    && lasted.map(phase -> phase.compareTo(required) < 0).orElse(true)) {
                verdict = Verdict.NOT_MEASURED;
                text += String.format(
                        Locale.ROOT,
                        "; not measured for %d minutes: the phase was shorter than the target's duration",
                        required.toMinutes());
            }
        }
        return new TargetStatus(definition.figure(), definition.target(), text, verdict);
    }

    /**
     * One row of the issue's table.
     *
     * @param metricKeys the metrics that must all meet their own targets
     * @param sustainedFor how long the figure must hold, when the target says so
     */
    record Definition(String figure, String target, List<String> metricKeys, Optional<Duration> sustainedFor) {
        Definition {
            requireNonNull(figure, "figure is null");
            requireNonNull(target, "target is null");
            metricKeys = List.copyOf(requireNonNull(metricKeys, "metricKeys is null"));
            requireNonNull(sustainedFor, "sustainedFor is null");
        }
    }
}
