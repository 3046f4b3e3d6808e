package io.fleetlake.flink.functions;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import java.io.Serializable;
import java.util.Optional;

/**
 * The checks every position must pass before it is stored anywhere: coordinates that exist on Earth and finite
 * measurements. Operating rules (region, plausible speed, clock skew) come later and have their own reasons.
 */
public final class MinimalValidation implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The first rule the position breaks, or empty when it is acceptable. */
    public Optional<Violation> check(Position position) {
        requireNonNull(position, "position is null");
        if (!inRange(position.latitude(), 90)) {
            return Optional.of(new Violation(
                    RejectionReason.INVALID_COORDINATES,
                    "latitude must be a finite number between -90 and 90, got " + position.latitude()));
        }
        if (!inRange(position.longitude(), 180)) {
            return Optional.of(new Violation(
                    RejectionReason.INVALID_COORDINATES,
                    "longitude must be a finite number between -180 and 180, got " + position.longitude()));
        }
        if (!Double.isFinite(position.speedKmh())) {
            return Optional.of(new Violation(
                    RejectionReason.INVALID_FIELD, "speed_kmh must be a finite number, got " + position.speedKmh()));
        }
        if (!Double.isFinite(position.headingDeg())) {
            return Optional.of(new Violation(
                    RejectionReason.INVALID_FIELD,
                    "heading_deg must be a finite number, got " + position.headingDeg()));
        }
        return Optional.empty();
    }

    private static boolean inRange(double value, double bound) {
        // NaN fails both comparisons, infinities fail one of them.
        return value >= -bound && value <= bound;
    }

    /** A broken rule: the stable reason and what exactly is wrong. */
    public record Violation(RejectionReason reason, String detail) {
        public Violation {
            requireNonNull(reason, "reason is null");
            requireNonNull(detail, "detail is null");
        }
    }
}
