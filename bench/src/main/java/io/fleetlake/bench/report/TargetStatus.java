package io.fleetlake.bench.report;

import static java.util.Objects.requireNonNull;

/**
 * Where a run stands on one target of issue 13.
 *
 * @param figure the words for the figure
 * @param target the words for the target
 * @param measured the run's figures, or {@code not measured: <why>}
 * @param verdict {@link Verdict#MET} only when every figure of the row was measured and met
 */
public record TargetStatus(String figure, String target, String measured, Verdict verdict) {
    public TargetStatus {
        requireNonNull(figure, "figure is null");
        requireNonNull(target, "target is null");
        requireNonNull(measured, "measured is null");
        requireNonNull(verdict, "verdict is null");
        if (verdict == Verdict.NO_TARGET) {
            throw new IllegalArgumentException("Every row of the targets table has a target: " + figure);
        }
    }
}
