package io.fleetlake.operations.exporter;

import static java.util.Objects.requireNonNull;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Collects the samples of one scrape into metric families: gauges, and counters (named without {@code _total}). */
final class MetricFamilies {
    private final Map<String, Family> families = new LinkedHashMap<>();

    /**
     * @param name the series' name
     * @param labels alternating label names and values
     */
    MetricFamilies gauge(String name, String help, double value, String... labels) {
        family(name, help, false).points.add(new Point(Labels.of(labels), value));
        return this;
    }

    /** A counter; {@code name} without the {@code _total} the text format adds. */
    MetricFamilies counter(String name, String help, double value, String... labels) {
        family(name, help, true).points.add(new Point(Labels.of(labels), value));
        return this;
    }

    MetricSnapshots build() {
        List<MetricSnapshot> snapshots = new ArrayList<>();
        for (Map.Entry<String, Family> entry : families.entrySet()) {
            Family family = entry.getValue();
            if (family.counter) {
                CounterSnapshot.Builder builder =
                        CounterSnapshot.builder().name(entry.getKey()).help(family.help);
                family.points.forEach(point -> builder.dataPoint(CounterDataPointSnapshot.builder()
                        .labels(point.labels)
                        .value(point.value)
                        .build()));
                snapshots.add(builder.build());
            } else {
                GaugeSnapshot.Builder builder =
                        GaugeSnapshot.builder().name(entry.getKey()).help(family.help);
                family.points.forEach(point -> builder.dataPoint(GaugeDataPointSnapshot.builder()
                        .labels(point.labels)
                        .value(point.value)
                        .build()));
                snapshots.add(builder.build());
            }
        }
        return new MetricSnapshots(snapshots);
    }

    private Family family(String name, String help, boolean counter) {
        Family family =
                families.computeIfAbsent(name, key -> new Family(requireNonNull(help, "help is null"), counter));
        if (family.counter != counter) {
            throw new IllegalArgumentException(name + " is registered both as a counter and as a gauge");
        }
        return family;
    }

    private static final class Family {
        private final String help;
        private final boolean counter;
        private final List<Point> points = new ArrayList<>();

        private Family(String help, boolean counter) {
            this.help = help;
            this.counter = counter;
        }
    }

    private record Point(Labels labels, double value) {}
}
