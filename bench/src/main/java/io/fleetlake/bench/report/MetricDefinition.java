package io.fleetlake.bench.report;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * A metric the bench reports, before it is measured.
 *
 * @param key stable identifier in the JSON results
 * @param name as printed in the table
 * @param unit such as {@code msg/s}
 * @param target what it must reach, if anything
 * @param reference the production system's figure, or {@code -}
 */
public record MetricDefinition(String key, String name, String unit, Optional<Target> target, String reference) {
    public MetricDefinition {
        requireNonNull(key, "key is null");
        requireNonNull(name, "name is null");
        requireNonNull(unit, "unit is null");
        requireNonNull(target, "target is null");
        requireNonNull(reference, "reference is null");
    }

    public static MetricDefinition of(String key, String name, String unit) {
        return new MetricDefinition(key, name, unit, Optional.empty(), "-");
    }

    public MetricDefinition withTarget(Target goal) {
        return new MetricDefinition(key, name, unit, Optional.of(goal), reference);
    }

    public MetricDefinition withReference(String production) {
        return new MetricDefinition(key, name, unit, target, production);
    }
}
