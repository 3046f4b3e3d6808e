package io.fleetlake.metrics.flink;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.TreeMap;

/**
 * Where one Flink metric goes: the Prometheus series (name without {@code _total}, labels) and how its value is
 * converted to base units.
 *
 * @param name the series' name
 * @param counter whether it is a counter (the text format adds {@code _total}) rather than a gauge
 * @param labels its labels, sorted by name
 * @param scale the factor from Flink's unit to the base unit (0.001 from milliseconds to seconds)
 */
record Series(String name, boolean counter, Map<String, String> labels, double scale) {
    Series {
        requireNonNull(name, "name is null");
        labels = java.util.Collections.unmodifiableMap(new TreeMap<>(requireNonNull(labels, "labels is null")));
    }
}
