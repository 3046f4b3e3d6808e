package io.fleetlake.flink.vehicles;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.config.EnrichmentConfig;
import io.fleetlake.flink.functions.ProcessingErrors;
import io.fleetlake.flink.functions.Rejections;
import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.flink.records.RouteUpdate;
import io.fleetlake.flink.sinks.VehicleState;
import io.fleetlake.flink.vehicles.FixJudge.Accepted;
import io.fleetlake.flink.vehicles.FixJudge.Rejected;
import io.fleetlake.flink.vehicles.FixJudge.Resend;
import io.fleetlake.flink.vehicles.FixJudge.Verdict;
import io.fleetlake.model.PipelineMetricNames;
import io.fleetlake.model.RecordFailures;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.validation.PositionValidator;
import io.fleetlake.validation.ValidationRules;
import java.time.Duration;
import java.time.Instant;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipeline's one keyed step per vehicle: de-duplication, jump check and enrichment ({@link FixJudge}) over one
 * state value per vehicle ({@link VehicleTrack}, written by {@link VehicleTrackSerializer}), and the preparation of
 * everything an accepted fix becomes: its row of {@code fleet.positions} (built by the table sink's converter, emitted
 * to {@link #positionRows()}), its current-state update for Redis ({@link #CURRENT_STATE}) and the enriched position
 * for the minute windows (main output). Keyed by vehicle id, both inputs: the decoded positions and the planning API's
 * route updates.
 *
 * <p><b>Failure isolation.</b> Everything a fix needs is computed before anything is emitted or the vehicle's state is
 * changed. When any of it fails in a way {@link RecordFailures} counts as the record's (any exception, a {@link
 * StackOverflowError}, an {@link OutOfMemoryError} of the heap), whatever the fix's values, the fix is dead-lettered as
 * {@link RejectionReason#PROCESSING_ERROR} with a summary of the failure, counted, and the state stays as it was: no
 * record can fail the task. Other errors (a missing class, a broken JVM) fail it, to restart from the checkpoint. A
 * route update that cannot be applied is logged and counted ({@code routeUpdatesFailed}), and the vehicle keeps its
 * previous route. What is emitted is only handed on: the Redis writer, the windows and the row writer
 * get values that are already built.
 *
 * <p><b>Accounting.</b> Each position is counted once here: {@link PipelineMetricNames#RECORDS_ACCEPTED}, {@link
 * PipelineMetricNames#RESENDS_DEDUPLICATED} or {@link PipelineMetricNames#RECORDS_REJECTED} (a conflict, a jump or a
 * processing error), so that {@code recordsRead = recordsAccepted + recordsRejected + resendsDeduplicated} over the
 * job.
 *
 * <p><b>State size and expiry.</b> One {@link VehicleTrack} per vehicle: the memory of its last {@code memoryCapacity}
 * accepted fixes, two fixes for the jump check, its route and its status tracker. A vehicle without any record or route
 * update for {@code ttl} (processing time) is forgotten: one processing-time timer per vehicle, moved forward when it
 * fires rather than on every record. No Flink state TTL: its clean-up runs on every state access.
 *
 * <p><b>Exactly once.</b> The state is checkpointed with the source offsets, and all records of a vehicle come from
 * one Kafka partition in offset order, so a replay after a failover starts from the checkpointed track and reaches the
 * same verdicts; a replayed fix is not in the restored memory and is therefore not mistaken for a resend.
 *
 * @param <R> the row type of {@code fleet.positions}
 */
public final class VehiclePositions<R>
        extends KeyedCoProcessFunction<String, IngestedPosition, RouteUpdate, EnrichedPosition> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(VehiclePositions.class);

    /** Each accepted fix's update of the fleet's current state (the Redis writer). */
    public static final OutputTag<VehicleState> CURRENT_STATE =
            new OutputTag<>("current-state", TypeInformation.of(VehicleState.class));

    private final FixJudge judge;
    private final long ttlMillis;
    private final int memoryCapacity;
    private final MapFunction<EnrichedPosition, R> rows;
    private final OutputTag<R> positionRows;

    private transient ValueState<VehicleTrack> tracks;
    private transient Counter recordsAccepted;
    private transient Counter resendsDeduplicated;
    private transient Counter baselineResets;
    private transient Counter routeUpdates;
    private transient Counter routeUpdatesFailed;
    private transient Counter staleEnrichments;
    private transient Counter vehiclesExpired;
    private transient Rejections rejections;

    /**
     * @param ttl how long a vehicle without records or route updates is remembered
     * @param memoryCapacity how many of each vehicle's last accepted fixes the de-duplication remembers
     * @param rows builds the {@code fleet.positions} row of an accepted fix
     * @param rowType the type of those rows
     */
    public VehiclePositions(
            ValidationRules rules,
            EnrichmentConfig enrichment,
            Duration ttl,
            int memoryCapacity,
            MapFunction<EnrichedPosition, R> rows,
            TypeInformation<R> rowType) {
        this.judge = new FixJudge(new PositionValidator(requireNonNull(rules, "rules is null")), enrichment);
        requireNonNull(ttl, "ttl is null");
        if (ttl.isZero() || ttl.isNegative()) {
            throw new IllegalArgumentException("ttl must be positive, got " + ttl);
        }
        if (memoryCapacity < 1) {
            throw new IllegalArgumentException("memoryCapacity must be at least 1, got " + memoryCapacity);
        }
        this.ttlMillis = ttl.toMillis();
        this.memoryCapacity = memoryCapacity;
        this.rows = requireNonNull(rows, "rows is null");
        this.positionRows = new OutputTag<>("position-rows", requireNonNull(rowType, "rowType is null"));
    }

    /** The side output of the {@code fleet.positions} rows of the accepted fixes. */
    public OutputTag<R> positionRows() {
        return positionRows;
    }

    @Override
    public void open(OpenContext openContext) {
        tracks =
                getRuntimeContext().getState(new ValueStateDescriptor<>("vehicle-track", new VehicleTrackSerializer()));
        var metrics = getRuntimeContext().getMetricGroup();
        recordsAccepted = metrics.counter(PipelineMetricNames.RECORDS_ACCEPTED);
        resendsDeduplicated = metrics.counter(PipelineMetricNames.RESENDS_DEDUPLICATED);
        baselineResets = metrics.counter(PipelineMetricNames.JUMP_BASELINE_RESETS);
        routeUpdates = metrics.counter(PipelineMetricNames.ROUTE_UPDATES);
        routeUpdatesFailed = metrics.counter(PipelineMetricNames.ROUTE_UPDATES_FAILED);
        staleEnrichments = metrics.counter(PipelineMetricNames.STALE_ENRICHMENTS);
        vehiclesExpired = metrics.counter(PipelineMetricNames.VEHICLES_EXPIRED);
        rejections = Rejections.registerCounters(metrics);
    }

    @Override
    public void processElement1(IngestedPosition input, Context context, Collector<EnrichedPosition> out)
            throws Exception {
        long now = context.timerService().currentProcessingTime();
        Verdict verdict;
        EnrichedPosition enriched = null;
        R row = null;
        VehicleState currentState = null;
        RejectedRecord rejected = null;
        // State access stays outside the per-record guard: a failing state backend is a fault to restart from, not a
        // property of this record.
        VehicleTrack track = track(context, now);
        try {
            verdict = judge.judge(track, input, now);
            if (verdict instanceof Accepted accepted) {
                enriched = new EnrichedPosition(input, accepted.enrichment());
                row = rows.map(enriched);
                currentState = VehicleState.of(enriched);
            } else if (verdict instanceof Rejected refused) {
                rejected = RejectedRecord.of(input, refused.reason(), refused.detail(), Instant.ofEpochMilli(now));
            }
            judge.apply(track, input, verdict);
        } catch (Throwable failure) {
            // A per-record failure: the fix is dead-lettered and the state stays as it was; see the class comment.
            RecordFailures.rethrowUnlessPerRecord(failure);
            String summary = ProcessingErrors.summary("vehicle-positions", failure);
            LOG.warn(
                    "Dead-lettering {}-{}@{} of vehicle {}: {}",
                    input.source().topic(),
                    input.sourcePartition(),
                    input.sourceOffset(),
                    input.vehicleId(),
                    summary,
                    failure);
            reject(
                    context,
                    RejectedRecord.of(input, RejectionReason.PROCESSING_ERROR, summary, Instant.ofEpochMilli(now)));
            return;
        }
        tracks.update(track);
        if (verdict instanceof Resend) {
            resendsDeduplicated.inc();
        } else if (rejected != null) {
            reject(context, rejected);
        } else {
            Accepted accepted = (Accepted) verdict;
            recordsAccepted.inc();
            if (accepted.resetsBaseline()) {
                baselineResets.inc();
            }
            if (accepted.enrichment().stale()) {
                staleEnrichments.inc();
            }
            context.output(positionRows, row);
            context.output(CURRENT_STATE, currentState);
            out.collect(enriched);
        }
    }

    @Override
    public void processElement2(RouteUpdate update, Context context, Collector<EnrichedPosition> out) throws Exception {
        long now = context.timerService().currentProcessingTime();
        VehicleTrack track = track(context, now);
        try {
            judge.assignRoute(track, update.route(), update.fetchedAt());
        } catch (Throwable failure) {
            RecordFailures.rethrowUnlessPerRecord(failure);
            routeUpdatesFailed.inc();
            LOG.warn(
                    "Cannot apply the planning API's route {} of vehicle {}; the vehicle keeps its previous route: {}",
                    update.hasRoute() ? update.route().routeId() : "(withdrawal)",
                    update.vehicleId(),
                    ProcessingErrors.summary("route update", failure),
                    failure);
            return;
        }
        tracks.update(track);
        routeUpdates.inc();
    }

    /** The vehicle's track, created (with its expiry timer) when the vehicle is new; marked active now. */
    private VehicleTrack track(Context context, long now) throws Exception {
        VehicleTrack track = tracks.value();
        if (track == null) {
            track = new VehicleTrack(memoryCapacity);
        } else {
            track.ensureMemoryCapacity(memoryCapacity);
        }
        track.touch(now);
        if (track.expiryTimer() == Long.MIN_VALUE) {
            long expiry = now + ttlMillis;
            context.timerService().registerProcessingTimeTimer(expiry);
            track.expiryTimer(expiry);
        }
        return track;
    }

    /** Forgets a vehicle silent for the time to live, or moves its timer to the end of its time to live. */
    @Override
    public void onTimer(long timestamp, OnTimerContext context, Collector<EnrichedPosition> out) throws Exception {
        VehicleTrack track = tracks.value();
        if (track == null || track.expiryTimer() != timestamp) {
            return;
        }
        long expiresAt = track.lastActivity() + ttlMillis;
        if (expiresAt <= timestamp) {
            tracks.clear();
            vehiclesExpired.inc();
            return;
        }
        context.timerService().registerProcessingTimeTimer(expiresAt);
        track.expiryTimer(expiresAt);
        tracks.update(track);
    }

    private void reject(Context context, RejectedRecord rejected) {
        rejections.count(rejected.reason());
        context.output(Rejections.SIDE_OUTPUT, rejected);
    }
}
