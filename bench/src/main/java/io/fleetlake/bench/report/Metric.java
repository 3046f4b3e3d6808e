package io.fleetlake.bench.report;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Optional;

/**
 * One figure of a bench run: either a measured value or the reason it could not be measured, never an estimate.
 *
 * @param key stable identifier in the JSON results, such as {@code latency.redis.p95}
 * @param name as printed in the table
 * @param value the measured value in {@code unit}; empty when not measured
 * @param unit such as {@code msg/s} or {@code ms}
 * @param target what the figure must reach, if the brief sets a target
 * @param reference the figure of the production system this project replaces, or {@code -}
 * @param method how the value was measured
 * @param notMeasured why there is no value; present exactly when {@code value} is empty
 */
public record Metric(
        String key,
        String name,
        Optional<Double> value,
        String unit,
        Optional<Target> target,
        String reference,
        String method,
        Optional<String> notMeasured) {
    public Metric {
        requireNonNull(key, "key is null");
        requireNonNull(name, "name is null");
        requireNonNull(value, "value is null");
        requireNonNull(unit, "unit is null");
        requireNonNull(target, "target is null");
        requireNonNull(reference, "reference is null");
        requireNonNull(method, "method is null");
        requireNonNull(notMeasured, "notMeasured is null");
        if (value.isPresent() == notMeasured.isPresent()) {
            throw new IllegalArgumentException(
                    "Metric " + key + " needs either a value or the reason it was not measured, not both or neither");
        }
        value.ifPresent(measured -> {
            if (!Double.isFinite(measured)) {
                throw new IllegalArgumentException("Metric " + key + " has no finite value: " + measured);
            }
        });
    }

    public static Metric measured(MetricDefinition definition, double value, String method) {
        return new Metric(
                definition.key(),
                definition.name(),
                Optional.of(value),
                definition.unit(),
                definition.target(),
                definition.reference(),
                method,
                Optional.empty());
    }

    public static Metric notMeasured(MetricDefinition definition, String reason) {
        return new Metric(
                definition.key(),
                definition.name(),
                Optional.empty(),
                definition.unit(),
                definition.target(),
                definition.reference(),
                "",
                Optional.of(reason));
    }

    public Verdict verdict() {
        if (value.isEmpty()) {
            return Verdict.NOT_MEASURED;
        }
        return target.map(goal -> goal.isMetBy(value.get()) ? Verdict.MET : Verdict.MISSED)
                .orElse(Verdict.NO_TARGET);
    }

    /** The value with its unit, such as {@code 31,204 msg/s}, or {@code not measured: <why>}. */
    public String formattedValue() {
        return value.map(measured -> formatNumber(measured) + " " + unit)
                .orElseGet(() -> "not measured: " + notMeasured.orElseThrow());
    }

    static String formatNumber(double value) {
        double magnitude = Math.abs(value);
        if (magnitude >= 100 || value == Math.rint(value)) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        return String.format(Locale.ROOT, magnitude >= 10 ? "%,.1f" : "%,.2f", value);
    }
}
