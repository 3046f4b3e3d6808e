package io.fleetlake.validation;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.RejectionReason;

/**
 * Why a position was refused.
 *
 * @param reason stable code written to the dead-letter topic and the rejected positions table
 * @param detail for people: the offending value and the limit it broke
 */
public record Rejection(RejectionReason reason, String detail) {
    public Rejection {
        requireNonNull(reason, "reason is null");
        requireNonNull(detail, "detail is null");
    }
}
