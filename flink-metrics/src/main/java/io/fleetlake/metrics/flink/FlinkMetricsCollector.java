package io.fleetlake.metrics.flink;

import static java.util.Objects.requireNonNull;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Meter;
import org.apache.flink.metrics.Metric;

/**
 * The Flink metrics the reporter was told about, read at each scrape. Metrics that map to the same series (the same
 * operator in a restarted task, before the old one is removed) are added up.
 */
final class FlinkMetricsCollector implements MultiCollector {
    private final Map<Metric, Series> metrics = new ConcurrentHashMap<>();

    void add(Metric metric, Series series) {
        metrics.put(requireNonNull(metric, "metric is null"), requireNonNull(series, "series is null"));
    }

    void remove(Metric metric) {
        metrics.remove(metric);
    }

    @Override
    public MetricSnapshots collect() {
        // name -> (labels -> value); counters and gauges kept apart by the series' kind.
        Map<String, Map<Map<String, String>, Double>> values = new TreeMap<>();
        Map<String, Boolean> counters = new TreeMap<>();
        metrics.forEach((metric, series) -> value(metric).ifPresent(value -> {
            counters.put(series.name(), series.counter());
            values.computeIfAbsent(series.name(), name -> new java.util.HashMap<>())
                    .merge(series.labels(), value * series.scale(), Double::sum);
        }));
        List<MetricSnapshot> snapshots = new ArrayList<>();
        values.forEach(
                (name, points) -> snapshots.add(counters.get(name) ? counter(name, points) : gauge(name, points)));
        return new MetricSnapshots(snapshots);
    }

    private static MetricSnapshot counter(String name, Map<Map<String, String>, Double> points) {
        CounterSnapshot.Builder builder = CounterSnapshot.builder().name(name).help(help(name));
        points.forEach((labels, value) -> builder.dataPoint(CounterDataPointSnapshot.builder()
                .labels(labels(labels))
                .value(Math.max(0, value))
                .build()));
        return builder.build();
    }

    private static MetricSnapshot gauge(String name, Map<Map<String, String>, Double> points) {
        GaugeSnapshot.Builder builder = GaugeSnapshot.builder().name(name).help(help(name));
        points.forEach((labels, value) -> builder.dataPoint(GaugeDataPointSnapshot.builder()
                .labels(labels(labels))
                .value(value)
                .build()));
        return builder.build();
    }

    private static String help(String name) {
        return "Fleet pipeline metric from Flink (see deploy/prometheus/README.md): " + name;
    }

    private static Labels labels(Map<String, String> labels) {
        return Labels.of(List.copyOf(labels.keySet()), List.copyOf(labels.values()));
    }

    /** The metric's current value; empty for a gauge that holds no number, or a histogram. */
    static OptionalDouble value(Metric metric) {
        if (metric instanceof Counter counter) {
            return OptionalDouble.of(counter.getCount());
        }
        if (metric instanceof Gauge<?> gauge) {
            Object value = gauge.getValue();
            return value instanceof Number number ? OptionalDouble.of(number.doubleValue()) : OptionalDouble.empty();
        }
        if (metric instanceof Meter meter) {
            return OptionalDouble.of(meter.getRate());
        }
        return OptionalDouble.empty();
    }
}
