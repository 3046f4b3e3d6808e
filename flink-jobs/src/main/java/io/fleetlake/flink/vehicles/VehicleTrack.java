package io.fleetlake.flink.vehicles;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.enrichment.RouteGeometry;
import io.fleetlake.flink.enrichment.StatusTracker;
import io.fleetlake.model.Position;
import java.time.Instant;

/**
 * Everything the pipeline keeps about one vehicle, in one keyed state value: the de-duplication memory ({@link
 * AcceptedFixes}), the jump check's baseline (the newest accepted fix) and the fix it rejected last, the vehicle's
 * route as the planning API last returned it, and the enrichment's {@link StatusTracker}. One value per vehicle, so a
 * record costs one state access, and the state is bounded by the fleet, not by the traffic.
 *
 * <p>Mutable and confined to the task thread; {@link VehicleTrackSerializer} copies it deeply where it is mutable (the
 * memory) and shares what is immutable (the route, the tracker).
 */
public final class VehicleTrack {
    AcceptedFixes accepted;
    Instant baselineTime;
    double baselineLatitude;
    double baselineLongitude;
    Instant rejectedTime;
    double rejectedLatitude;
    double rejectedLongitude;
    RouteGeometry route;
    Instant routeFetchedAt;
    StatusTracker tracker = StatusTracker.INITIAL;
    /** Processing time of the last record or route update of the vehicle. */
    long lastActivity;
    /** Processing time of the expiry timer registered for the vehicle, or {@link Long#MIN_VALUE} when none is. */
    long expiryTimer = Long.MIN_VALUE;

    public VehicleTrack(int memoryCapacity) {
        this.accepted = new AcceptedFixes(memoryCapacity);
    }

    VehicleTrack(AcceptedFixes accepted) {
        this.accepted = requireNonNull(accepted, "accepted is null");
    }

    public AcceptedFixes accepted() {
        return accepted;
    }

    /** Whether there is a newest accepted fix to judge jumps against. */
    public boolean hasBaseline() {
        return baselineTime != null;
    }

    public Instant baselineTime() {
        return baselineTime;
    }

    public double baselineLatitude() {
        return baselineLatitude;
    }

    public double baselineLongitude() {
        return baselineLongitude;
    }

    /** Whether the last fix judged against the baseline was rejected as a jump (and nothing was accepted since). */
    public boolean hasRejectedJump() {
        return rejectedTime != null;
    }

    public RouteGeometry route() {
        return route;
    }

    public Instant routeFetchedAt() {
        return routeFetchedAt;
    }

    public StatusTracker tracker() {
        return tracker;
    }

    public long lastActivity() {
        return lastActivity;
    }

    public long expiryTimer() {
        return expiryTimer;
    }

    void moveBaselineTo(Position fix) {
        baselineTime = fix.eventTime();
        baselineLatitude = fix.latitude();
        baselineLongitude = fix.longitude();
    }

    void rememberRejectedJump(Position fix) {
        rejectedTime = fix.eventTime();
        rejectedLatitude = fix.latitude();
        rejectedLongitude = fix.longitude();
    }

    void forgetRejectedJump() {
        rejectedTime = null;
    }

    /** Sets the route, or clears it with null. */
    void route(RouteGeometry geometry, Instant fetchedAt) {
        route = geometry;
        routeFetchedAt = geometry == null ? null : fetchedAt;
    }

    void tracker(StatusTracker next) {
        tracker = requireNonNull(next, "next is null");
    }

    void touch(long processingTime) {
        lastActivity = processingTime;
    }

    void expiryTimer(long time) {
        expiryTimer = time;
    }

    /** Makes the memory hold {@code capacity} fixes (after the setting changed), keeping the newest. */
    void ensureMemoryCapacity(int capacity) {
        if (accepted.capacity() != capacity) {
            accepted = accepted.withCapacity(capacity);
        }
    }

    /** A copy that shares nothing mutable with this one. */
    VehicleTrack copy() {
        VehicleTrack copy = new VehicleTrack(accepted.copy());
        copy.baselineTime = baselineTime;
        copy.baselineLatitude = baselineLatitude;
        copy.baselineLongitude = baselineLongitude;
        copy.rejectedTime = rejectedTime;
        copy.rejectedLatitude = rejectedLatitude;
        copy.rejectedLongitude = rejectedLongitude;
        copy.route = route;
        copy.routeFetchedAt = routeFetchedAt;
        copy.tracker = tracker;
        copy.lastActivity = lastActivity;
        copy.expiryTimer = expiryTimer;
        return copy;
    }
}
