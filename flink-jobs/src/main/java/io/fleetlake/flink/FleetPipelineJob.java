package io.fleetlake.flink;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.config.EnrichmentConfig;
import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.functions.DecodePositions;
import io.fleetlake.flink.functions.EventTime;
import io.fleetlake.flink.functions.Rejections;
import io.fleetlake.flink.functions.RouteUpdates;
import io.fleetlake.flink.functions.VehicleMinutes;
import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.flink.records.RoutePoll;
import io.fleetlake.flink.records.RouteUpdate;
import io.fleetlake.flink.records.VehicleMinute;
import io.fleetlake.flink.sinks.RowTableSink;
import io.fleetlake.flink.sinks.TableSink;
import io.fleetlake.flink.sinks.VehicleState;
import io.fleetlake.flink.types.RecordSerializers;
import io.fleetlake.flink.vehicles.VehiclePositions;
import io.fleetlake.model.PipelineMetricNames;
import io.fleetlake.validation.ValidationRules;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamUtils;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The fleet pipeline's topology:
 *
 * <pre>
 * raw records
 *   → decode-positions          payload size, decode, stateless rules (vehicle id, MQTT topic, fields,  (rejections →)
 *                               speed, time, region)
 *   → event-time-watermarks     timestamps = event_time, bounded out-of-orderness, idleness
 *   → vehicle-positions         keyed by vehicle (the one shuffle), with the route updates: de-duplication,   (rejections →)
 *                               jump check, enrichment, and each accepted fix's row, Redis update and window input
 *        ├→ (rows, rescale) → fleet.positions writer and committer, in tasks of their own
 *        ├→ current-state sink (Redis), chained
 *        └→ vehicle-minutes     same key, chained: one-minute event-time windows → fleet.vehicle_minutes (upsert)
 *                               positions later than the allowed lateness → late-positions sink
 * planning-routes-source (parallelism 1) → route-updates (one per vehicle, withdrawals) → vehicle-positions
 * every rejection → dead-letter sink and fleet.rejected_positions
 * </pre>
 *
 * <p>It only wires named operators with stable uids (state is matched by uid on restore, so never change one); sources
 * and sinks are passed in, so that tests run the same topology on bounded sources and collecting sinks. The per-vehicle
 * work is one operator with one state value per vehicle ({@link VehiclePositions}, uid {@value #VEHICLE_POSITIONS_UID}),
 * which replaced three keyed operators of earlier releases ({@link #RETIRED_UIDS}); a checkpoint of an earlier release
 * restores with their state dropped (the runner allows it) and everything else restored, see the flink-jobs README,
 * "Restoring older checkpoints". The payloads are shuffled once, from the source subtasks to the vehicle operator; the
 * windows and the Redis sink are chained to it. The rows of {@code fleet.positions} are built in the vehicle operator
 * (a row that cannot be built dead-letters its record there) and written by a writer task of its own, so that its file
 * uploads at every checkpoint never hold up the Redis updates.
 *
 * <p>Where the watermark is generated and why: see {@link EventTime}. The sinks of {@code fleet.positions} and the
 * current state are fed by the vehicle operator, before the windows, so a position too late for its window is still in
 * the table: the history is complete, and the late-positions topic only says which minute to recompute.
 *
 * <p><b>Accounting.</b> Every record read is counted once by {@code decode-positions} ({@link
 * PipelineMetricNames#RECORDS_READ}) and once more where its fate is decided: rejected by either of the two operators
 * ({@link PipelineMetricNames#RECORDS_REJECTED}, and per reason in {@link PipelineMetricNames#REJECTION_REASON_GROUP};
 * a record a step failed on is a rejection of reason {@code PROCESSING_ERROR}), dropped as a resend ({@link
 * PipelineMetricNames#RESENDS_DEDUPLICATED}) or accepted ({@link PipelineMetricNames#RECORDS_ACCEPTED}). So, summed
 * over operators and subtasks, once no record is in flight:
 *
 * <pre>
 * recordsRead = recordsAccepted + recordsRejected + resendsDeduplicated
 * </pre>
 *
 * Counters are not checkpointed: after a failover the restarted tasks count from zero and count the replayed records
 * again, and the identity holds for the restarted attempt from its restored checkpoint on. The job runs under the name
 * {@link PipelineMetricNames#JOB_NAME}; the counter names are defined in {@link PipelineMetricNames}, shared with the
 * dashboard that reads them through the Flink REST API.
 */
public final class FleetPipelineJob {
    /** The uid of {@link VehiclePositions}. */
    public static final String VEHICLE_POSITIONS_UID = "vehicle-positions";

    /**
     * Uids of operators of earlier releases whose work {@code vehicle-positions} does now: the de-duplication (two
     * layouts), the jump check and the enrichment. Never reuse one: their state has another layout.
     */
    public static final List<String> RETIRED_UIDS = List.of(
            "deduplicate-resends", "deduplicate-resends-by-fix", "reject-implausible-jumps", "enrich-positions");

    /**
     * How long a route update may wait in a network buffer on its way to {@code vehicle-positions}: routes are polled
     * every {@code enrichment.route-refresh}, so a second more does not matter, and a thread that flushes every second
     * instead of every {@code pipeline.buffer-timeout} costs nothing at idle.
     */
    static final Duration ROUTE_UPDATE_BUFFER_TIMEOUT = Duration.ofSeconds(1);

    private final Source<RawRecord, ?, ?> source;
    private final Source<RoutePoll, ?, ?> routeSource;
    private final Sink<RejectedRecord> deadLetterSink;
    private final TableSink<RejectedRecord> rejectedTableSink;
    private final Sink<VehicleState> currentStateSink;
    private final RowTableSink<EnrichedPosition, ?> positionTableSink;
    private final TableSink<VehicleMinute> vehicleMinuteTableSink;
    private final Sink<EnrichedPosition> latePositionSink;
    private final ValidationRules validationRules;
    private final EnrichmentConfig enrichment;
    private final Duration stateTtl;
    private final int dedupFixesPerVehicle;
    private final Duration maxOutOfOrderness;
    private final Duration sourceIdleness;
    private final Duration allowedLateness;
    private final Duration bufferTimeout;

    private FleetPipelineJob(Builder builder) {
        this.source = required(builder.source, "source");
        this.routeSource = required(builder.routeSource, "routeSource");
        this.deadLetterSink = required(builder.deadLetterSink, "deadLetterSink");
        this.rejectedTableSink = required(builder.rejectedTableSink, "rejectedTableSink");
        this.currentStateSink = required(builder.currentStateSink, "currentStateSink");
        this.positionTableSink = required(builder.positionTableSink, "positionTableSink");
        this.vehicleMinuteTableSink = required(builder.vehicleMinuteTableSink, "vehicleMinuteTableSink");
        this.latePositionSink = required(builder.latePositionSink, "latePositionSink");
        this.validationRules = required(builder.validationRules, "validationRules");
        this.enrichment = required(builder.enrichment, "enrichment");
        this.stateTtl = required(builder.stateTtl, "stateTtl");
        this.dedupFixesPerVehicle = builder.dedupFixesPerVehicle;
        this.maxOutOfOrderness = required(builder.maxOutOfOrderness, "maxOutOfOrderness");
        this.sourceIdleness = required(builder.sourceIdleness, "sourceIdleness");
        this.allowedLateness = required(builder.allowedLateness, "allowedLateness");
        this.bufferTimeout = builder.bufferTimeout;
    }

    private static <T> T required(T value, String name) {
        if (value == null) {
            throw new IllegalStateException(
                    "The fleet pipeline job needs " + name + ": call Builder." + name + "(...)");
        }
        return value;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Adds the pipeline to the environment; run it with {@code execute} or {@code executeAsync}. */
    public void addTo(StreamExecutionEnvironment environment) {
        addTo(environment, positionTableSink);
    }

    private <R> void addTo(StreamExecutionEnvironment environment, RowTableSink<EnrichedPosition, R> positionRows) {
        DataStream<RawRecord> raw = environment
                .fromSource(source, WatermarkStrategy.noWatermarks(), "raw-positions-source")
                .uid("raw-positions-source");

        SingleOutputStreamOperator<IngestedPosition> decoded = raw.process(
                        new DecodePositions(validationRules), RecordSerializers.INGESTED_POSITION)
                .name("decode-positions")
                .uid("decode-positions");

        DataStream<IngestedPosition> timestamped = decoded.assignTimestampsAndWatermarks(
                        EventTime.positions(maxOutOfOrderness, sourceIdleness))
                .name("event-time-watermarks")
                .uid("event-time-watermarks")
                .setBufferTimeout(bufferTimeout.toMillis());

        KeyedStream<RouteUpdate, String> routeUpdates = environment
                .fromSource(routeSource, EventTime.withoutEventTime(), "planning-routes-source")
                .setParallelism(1)
                .uid("planning-routes-source")
                .flatMap(new RouteUpdates(), RecordSerializers.ROUTE_UPDATE)
                .setParallelism(1)
                .name("route-updates")
                .uid("route-updates")
                .setBufferTimeout(ROUTE_UPDATE_BUFFER_TIMEOUT.toMillis())
                .keyBy(RouteUpdate::vehicleId, Types.STRING);

        VehiclePositions<R> vehicleFunction = new VehiclePositions<>(
                validationRules,
                enrichment,
                stateTtl,
                dedupFixesPerVehicle,
                positionRows.rows(),
                positionRows.rowType());
        SingleOutputStreamOperator<EnrichedPosition> accepted = timestamped
                .keyBy(IngestedPosition::vehicleId, Types.STRING)
                .connect(routeUpdates)
                .process(vehicleFunction, TypeInformation.of(EnrichedPosition.class))
                .name(VEHICLE_POSITIONS_UID)
                .uid(VEHICLE_POSITIONS_UID);

        DataStream<RejectedRecord> rejected =
                decoded.getSideOutput(Rejections.SIDE_OUTPUT).union(accepted.getSideOutput(Rejections.SIDE_OUTPUT));
        rejected.sinkTo(deadLetterSink).name("dead-letter-sink").uid("dead-letter-sink");
        rejectedTableSink.attach(rejected);

        positionRows.attachRows(accepted.getSideOutput(vehicleFunction.positionRows()));
        accepted.getSideOutput(VehiclePositions.CURRENT_STATE)
                .sinkTo(currentStateSink)
                .name("redis-current-state")
                .uid("redis-current-state");

        SingleOutputStreamOperator<VehicleMinute> minutes = VehicleMinutes.window(
                        DataStreamUtils.reinterpretAsKeyedStream(accepted, EnrichedPosition::vehicleId, Types.STRING),
                        allowedLateness,
                        enrichment.stopSpeedKmh())
                .name("vehicle-minutes")
                .uid("vehicle-minutes");
        vehicleMinuteTableSink.attach(minutes);
        minutes.getSideOutput(VehicleMinutes.LATE_POSITIONS)
                .sinkTo(latePositionSink)
                .name("late-positions-sink")
                .uid("late-positions-sink");
    }

    /** Collects the job's sources, sinks and settings; {@link #build} refuses a job with any of them missing. */
    public static final class Builder {
        private Source<RawRecord, ?, ?> source;
        private Source<RoutePoll, ?, ?> routeSource;
        private Sink<RejectedRecord> deadLetterSink;
        private TableSink<RejectedRecord> rejectedTableSink;
        private Sink<VehicleState> currentStateSink;
        private RowTableSink<EnrichedPosition, ?> positionTableSink;
        private TableSink<VehicleMinute> vehicleMinuteTableSink;
        private Sink<EnrichedPosition> latePositionSink;
        private ValidationRules validationRules;
        private EnrichmentConfig enrichment;
        private Duration stateTtl;
        private int dedupFixesPerVehicle = FleetPipelineConfig.DEFAULT_DEDUP_FIXES_PER_VEHICLE;
        private Duration maxOutOfOrderness;
        private Duration sourceIdleness;
        private Duration allowedLateness;
        private Duration bufferTimeout = FleetPipelineConfig.DEFAULT_BUFFER_TIMEOUT;

        private Builder() {}

        /** The raw device payloads. */
        public Builder source(Source<RawRecord, ?, ?> source) {
            this.source = requireNonNull(source, "source is null");
            return this;
        }

        /** The planning API's answers; run with parallelism 1. */
        public Builder routeSource(Source<RoutePoll, ?, ?> routeSource) {
            this.routeSource = requireNonNull(routeSource, "routeSource is null");
            return this;
        }

        public Builder deadLetterSink(Sink<RejectedRecord> deadLetterSink) {
            this.deadLetterSink = requireNonNull(deadLetterSink, "deadLetterSink is null");
            return this;
        }

        public Builder rejectedTableSink(TableSink<RejectedRecord> rejectedTableSink) {
            this.rejectedTableSink = requireNonNull(rejectedTableSink, "rejectedTableSink is null");
            return this;
        }

        public Builder currentStateSink(Sink<VehicleState> currentStateSink) {
            this.currentStateSink = requireNonNull(currentStateSink, "currentStateSink is null");
            return this;
        }

        /** The rows are built by the vehicle operator with the sink's converter; the sink writes them. */
        public Builder positionTableSink(RowTableSink<EnrichedPosition, ?> positionTableSink) {
            this.positionTableSink = requireNonNull(positionTableSink, "positionTableSink is null");
            return this;
        }

        /** Must replace a row emitted again with the same (vehicle, window start): a late firing updates it. */
        public Builder vehicleMinuteTableSink(TableSink<VehicleMinute> vehicleMinuteTableSink) {
            this.vehicleMinuteTableSink = requireNonNull(vehicleMinuteTableSink, "vehicleMinuteTableSink is null");
            return this;
        }

        public Builder latePositionSink(Sink<EnrichedPosition> latePositionSink) {
            this.latePositionSink = requireNonNull(latePositionSink, "latePositionSink is null");
            return this;
        }

        public Builder validationRules(ValidationRules validationRules) {
            this.validationRules = requireNonNull(validationRules, "validationRules is null");
            return this;
        }

        public Builder enrichment(EnrichmentConfig enrichment) {
            this.enrichment = requireNonNull(enrichment, "enrichment is null");
            return this;
        }

        /**
         * How long a vehicle's state lives after its last record or route update: its de-duplication memory, jump
         * baseline, route and status tracker.
         */
        public Builder stateTtl(Duration stateTtl) {
            this.stateTtl = requirePositive(stateTtl, "stateTtl");
            return this;
        }

        /** How many of each vehicle's last accepted fixes the de-duplication remembers; see {@link VehiclePositions}. */
        public Builder dedupFixesPerVehicle(int dedupFixesPerVehicle) {
            if (dedupFixesPerVehicle < 1) {
                throw new IllegalArgumentException(
                        "dedupFixesPerVehicle must be at least 1, got " + dedupFixesPerVehicle);
            }
            this.dedupFixesPerVehicle = dedupFixesPerVehicle;
            return this;
        }

        public Builder maxOutOfOrderness(Duration maxOutOfOrderness) {
            this.maxOutOfOrderness = requireNotNegative(maxOutOfOrderness, "maxOutOfOrderness");
            return this;
        }

        public Builder sourceIdleness(Duration sourceIdleness) {
            this.sourceIdleness = requirePositive(sourceIdleness, "sourceIdleness");
            return this;
        }

        public Builder allowedLateness(Duration allowedLateness) {
            this.allowedLateness = requireNotNegative(allowedLateness, "allowedLateness");
            return this;
        }

        /**
         * Longest a position waits in a network buffer that is not full on its way from the source tasks to {@code
         * vehicle-positions}, and so to Redis. Every other exchange of the job feeds a sink that commits at checkpoints
         * (the tables, the dead letters, the late positions): those buffers are sent when full or with the checkpoint
         * barrier, which flushes them, so they need no flusher thread waking every few milliseconds at idle ({@link
         * io.fleetlake.flink.runtime.ClusterConfiguration#jobSettings} switches the job-wide timeout off).
         */
        public Builder bufferTimeout(Duration bufferTimeout) {
            this.bufferTimeout = requireNotNegative(bufferTimeout, "bufferTimeout");
            return this;
        }

        public FleetPipelineJob build() {
            return new FleetPipelineJob(this);
        }

        private static Duration requirePositive(Duration duration, String name) {
            requireNotNegative(duration, name);
            if (duration.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, got " + duration);
            }
            return duration;
        }

        private static Duration requireNotNegative(Duration duration, String name) {
            requireNonNull(duration, name + " is null");
            if (duration.isNegative()) {
                throw new IllegalArgumentException(name + " must not be negative, got " + duration);
            }
            return duration;
        }
    }
}
