package io.fleetlake.bench.report;

import static java.util.Objects.requireNonNull;

/**
 * What a metric must reach.
 *
 * @param atLeast true when the measured value must be at least the threshold, false when at most
 * @param threshold in the metric's unit
 * @param description as printed, such as {@code ≥ 30,000 msg/s}
 */
public record Target(boolean atLeast, double threshold, String description) {
    public Target {
        requireNonNull(description, "description is null");
        if (!Double.isFinite(threshold)) {
            throw new IllegalArgumentException("A target threshold must be finite, got " + threshold);
        }
    }

    public static Target atLeast(double threshold, String description) {
        return new Target(true, threshold, description);
    }

    public static Target atMost(double threshold, String description) {
        return new Target(false, threshold, description);
    }

    public boolean isMetBy(double value) {
        return atLeast ? value >= threshold : value <= threshold;
    }
}
