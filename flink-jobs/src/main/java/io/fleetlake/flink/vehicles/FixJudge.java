package io.fleetlake.flink.vehicles;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.config.EnrichmentConfig;
import io.fleetlake.flink.enrichment.Enrichment;
import io.fleetlake.flink.enrichment.RouteGeometry;
import io.fleetlake.flink.enrichment.StatusTracker;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.model.Position;
import io.fleetlake.model.PositionFingerprint;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.planning.PlannedRoute;
import io.fleetlake.validation.PositionValidator;
import io.fleetlake.validation.Rejection;
import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The per-vehicle rules of the pipeline as plain functions over a {@link VehicleTrack}: de-duplication, the jump check
 * and the enrichment. {@link #judge} decides without changing the track; {@link #apply} then records the decision. The
 * operator ({@link VehiclePositions}) calls {@code apply} only once every output of the fix has been built, so a fix
 * that fails half-way (and is dead-lettered) leaves the track as it was.
 *
 * <p>The rules, in this order:
 *
 * <ol>
 *   <li><b>De-duplication.</b> A fix with the event time of a remembered accepted fix is a resend when its content
 *       fingerprint is the same (dropped), else a {@link RejectionReason#CONFLICTING_RESEND} naming where the first one
 *       was read. Only accepted fixes are remembered: a fix rejected as a jump is judged again when it comes again
 *       (for example republished by {@code fleet dlq reprocess}). See {@link AcceptedFixes} for how long a fix is
 *       remembered.
 *   <li><b>Jump check</b> against the baseline, the newest accepted fix by event time ({@link
 *       PositionValidator#checkJump}): no baseline, or plausible, accepted (the baseline moves to the later of the
 *       two); implausible but agreeing with the fix rejected just before (two consecutive fixes agree within {@code
 *       jump-check-max-gap}, and not that fix sent again: the baseline was the glitch, or the vehicle was moved),
 *       accepted, and it becomes the baseline; otherwise {@link RejectionReason#IMPLAUSIBLE_JUMP}, remembered as the last rejected fix. A
 *       <b>reprocessed</b> fix (republished from the dead letters, header {@code dlq.reprocessed-from}) is not judged
 *       by the jump check and does not move the baseline: the jump check judges a fix against its neighbours at the
 *       time it arrived, and an operator who reprocesses a rejected jump has decided that it is right (a vehicle on a
 *       ferry or a truck); judged again against today's baseline it would be rejected again for ever.
 *   <li><b>Enrichment</b> of the accepted fix with the vehicle's route and {@link StatusTracker}.
 * </ol>
 */
public final class FixJudge implements Serializable {
    private static final long serialVersionUID = 1L;

    private final PositionValidator validator;
    private final EnrichmentConfig enrichment;

    public FixJudge(PositionValidator validator, EnrichmentConfig enrichment) {
        this.validator = requireNonNull(validator, "validator is null");
        this.enrichment = requireNonNull(enrichment, "enrichment is null");
    }

    /**
     * What the fix is, for this vehicle's track; changes nothing.
     *
     * @param now processing time in epoch milliseconds (whether the route is stale)
     */
    public Verdict judge(VehicleTrack track, IngestedPosition input, long now) {
        Position fix = input.position();
        long fingerprint = PositionFingerprint.of(fix);
        AcceptedFixes accepted = track.accepted();
        int remembered = accepted.find(fix.eventTime());
        if (remembered >= 0) {
            if (accepted.fingerprint(remembered) == fingerprint) {
                return new Resend();
            }
            return new Rejected(
                    RejectionReason.CONFLICTING_RESEND,
                    "vehicle " + fix.vehicleId() + " already reported a different position with event_time "
                            + fix.eventTime() + "; the first one was accepted and it was read from "
                            + input.source().topic() + " partition " + accepted.partition(remembered) + " offset "
                            + accepted.offset(remembered),
                    false);
        }
        Baseline baseline = Baseline.KEEP;
        if (input.source().isReprocessed()) {
            baseline = Baseline.UNTOUCHED;
        } else if (track.hasBaseline()) {
            Optional<Rejection> jump =
                    validator.checkJump(track.baselineTime, track.baselineLatitude, track.baselineLongitude, fix);
            if (jump.isEmpty()) {
                baseline = fix.eventTime().isAfter(track.baselineTime) ? Baseline.MOVE : Baseline.KEEP;
            } else if (track.hasRejectedJump() && agreesWithRejected(track, fix)) {
                baseline = Baseline.RESET;
            } else {
                return new Rejected(RejectionReason.IMPLAUSIBLE_JUMP, jump.get().detail(), true);
            }
        } else {
            baseline = Baseline.MOVE;
        }
        RouteGeometry route = track.route();
        boolean stale = route != null
                && now - track.routeFetchedAt().toEpochMilli()
                        > enrichment.routeStaleAfter().toMillis();
        StatusTracker.Observation observation = track.tracker().observe(fix, route, stale, enrichment);
        return new Accepted(fingerprint, observation.enrichment(), observation.tracker(), baseline);
    }

    /** Records a decision of {@link #judge} for the same fix in the track. */
    public void apply(VehicleTrack track, IngestedPosition input, Verdict verdict) {
        Position fix = input.position();
        if (verdict instanceof Rejected rejected && rejected.rememberAsJump()) {
            track.rememberRejectedJump(fix);
        } else if (verdict instanceof Accepted accepted) {
            track.accepted()
                    .add(fix.eventTime(), accepted.fingerprint(), input.sourcePartition(), input.sourceOffset());
            switch (accepted.baseline()) {
                case MOVE, RESET -> {
                    track.moveBaselineTo(fix);
                    track.forgetRejectedJump();
                }
                case KEEP -> track.forgetRejectedJump();
                case UNTOUCHED -> {
                    // A reprocessed fix was not judged against the baseline and changes nothing about it.
                }
            }
            track.tracker(accepted.tracker());
        }
    }

    /** Sets the route of a planning API update (null: the vehicle no longer has one); the geometry once per route. */
    public void assignRoute(VehicleTrack track, PlannedRoute route, Instant fetchedAt) {
        if (route == null) {
            track.route(null, null);
            return;
        }
        RouteGeometry current = track.route();
        RouteGeometry geometry = current != null && current.route().equals(route) ? current : RouteGeometry.of(route);
        track.route(geometry, fetchedAt);
    }

    /**
     * The rejected fix and this one are two fixes (not the rejected one sent again), close enough in time to be
     * compared, and the move between them is plausible.
     */
    private boolean agreesWithRejected(VehicleTrack track, Position fix) {
        if (fix.eventTime().equals(track.rejectedTime)) {
            return false;
        }
        Duration gap = Duration.between(track.rejectedTime, fix.eventTime()).abs();
        return gap.compareTo(validator.rules().jumpCheckMaxGap()) <= 0
                && validator
                        .checkJump(track.rejectedTime, track.rejectedLatitude, track.rejectedLongitude, fix)
                        .isEmpty();
    }

    /** What an accepted fix does to the jump check's baseline. */
    public enum Baseline {
        /** Becomes the baseline: the first fix, or newer than the baseline. */
        MOVE,
        /** Stays as it is: an accepted fix older than the baseline (a late arrival). */
        KEEP,
        /** Replaces a baseline that it was implausible against, agreeing with the fix rejected before it. */
        RESET,
        /** A reprocessed fix: neither judged against the baseline nor changing it, nor the remembered rejected fix. */
        UNTOUCHED
    }

    /** The decision about one fix. */
    public sealed interface Verdict {}

    /** A device resend of an accepted fix: dropped. */
    public record Resend() implements Verdict {}

    /**
     * Refused.
     *
     * @param rememberAsJump whether the fix becomes the last rejected jump of the track
     */
    public record Rejected(RejectionReason reason, String detail, boolean rememberAsJump) implements Verdict {
        public Rejected {
            requireNonNull(reason, "reason is null");
            requireNonNull(detail, "detail is null");
        }
    }

    /**
     * Accepted.
     *
     * @param fingerprint {@link PositionFingerprint} of the fix, remembered for resends
     * @param enrichment the fix's enrichment
     * @param tracker the status tracker to keep
     * @param baseline what the fix does to the jump baseline
     */
    public record Accepted(long fingerprint, Enrichment enrichment, StatusTracker tracker, Baseline baseline)
            implements Verdict {
        public Accepted {
            requireNonNull(enrichment, "enrichment is null");
            requireNonNull(tracker, "tracker is null");
            requireNonNull(baseline, "baseline is null");
        }

        public boolean resetsBaseline() {
            return baseline == Baseline.RESET;
        }
    }
}
