package io.fleetlake.flink;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.functions.DecodePositions;
import io.fleetlake.flink.functions.DeduplicateResends;
import io.fleetlake.flink.functions.PipelineMetrics;
import io.fleetlake.flink.functions.RejectImplausibleJumps;
import io.fleetlake.flink.functions.Rejections;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.flink.sinks.TableSink;
import io.fleetlake.validation.ValidationRules;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamUtils;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The fleet pipeline's topology:
 *
 * <pre>
 * raw records
 *   → decode-positions          payload size, decode, stateless rules          (rejections →)
 *   → deduplicate-resends       keyed by vehicle: resends dropped, conflicts    (rejections →)
 *   → reject-implausible-jumps  same key, chained: GPS jumps                    (rejections →)
 *   → current-state sink and fleet.positions
 * every rejection → dead-letter sink and fleet.rejected_positions
 * </pre>
 *
 * <p>It only wires named operators with stable uids (state is matched by uid on restore, so never change one); sources
 * and sinks are passed in, so that tests run the same topology on bounded sources and collecting sinks. The jump check
 * reuses the de-duplication's partitioning ({@link DataStreamUtils#reinterpretAsKeyedStream}): both are keyed by vehicle
 * id, so it is chained to it without a second shuffle of the payloads.
 *
 * <p><b>Accounting.</b> Every record read is counted once by {@code decode-positions} ({@link
 * PipelineMetrics#RECORDS_READ}) and once more where its fate is decided: rejected by any of the three operators
 * ({@link PipelineMetrics#RECORDS_REJECTED}, and per reason in {@link PipelineMetrics#REJECTION_REASON_GROUP}), dropped
 * as a resend ({@link PipelineMetrics#RESENDS_DEDUPLICATED}) or accepted after the last rejection point ({@link
 * PipelineMetrics#RECORDS_ACCEPTED}). So, summed over operators and subtasks, once no record is in flight:
 *
 * <pre>
 * recordsRead = recordsAccepted + recordsRejected + resendsDeduplicated
 * </pre>
 *
 * Counters are not checkpointed: after a failover the restarted tasks count from zero and count the replayed records
 * again, and the identity holds for the restarted attempt from its restored checkpoint on.
 */
public final class FleetPipelineJob {
    public static final String JOB_NAME = "fleet-pipeline";

    private final Source<RawRecord, ?, ?> source;
    private final Sink<RejectedRecord> deadLetterSink;
    private final TableSink<RejectedRecord> rejectedTableSink;
    private final Sink<IngestedPosition> currentStateSink;
    private final TableSink<IngestedPosition> positionTableSink;
    private final ValidationRules validationRules;
    private final Duration stateTtl;

    /**
     * @param stateTtl how long per-vehicle state lives after it was last written: the (vehicle, event time) pairs of
     *     the de-duplication and the last fixes of the jump check
     */
    public FleetPipelineJob(
            Source<RawRecord, ?, ?> source,
            Sink<RejectedRecord> deadLetterSink,
            TableSink<RejectedRecord> rejectedTableSink,
            Sink<IngestedPosition> currentStateSink,
            TableSink<IngestedPosition> positionTableSink,
            ValidationRules validationRules,
            Duration stateTtl) {
        this.source = requireNonNull(source, "source is null");
        this.deadLetterSink = requireNonNull(deadLetterSink, "deadLetterSink is null");
        this.rejectedTableSink = requireNonNull(rejectedTableSink, "rejectedTableSink is null");
        this.currentStateSink = requireNonNull(currentStateSink, "currentStateSink is null");
        this.positionTableSink = requireNonNull(positionTableSink, "positionTableSink is null");
        this.validationRules = requireNonNull(validationRules, "validationRules is null");
        this.stateTtl = requireNonNull(stateTtl, "stateTtl is null");
    }

    /** Adds the pipeline to the environment; run it with {@code execute} or {@code executeAsync}. */
    public void addTo(StreamExecutionEnvironment environment) {
        // Event time and watermarks arrive with the windowing issue; nothing here depends on them yet.
        DataStream<RawRecord> raw = environment
                .fromSource(source, WatermarkStrategy.noWatermarks(), "raw-positions-source")
                .uid("raw-positions-source");

        SingleOutputStreamOperator<IngestedPosition> decoded = raw.process(new DecodePositions(validationRules))
                .name("decode-positions")
                .uid("decode-positions");

        SingleOutputStreamOperator<IngestedPosition> unique = decoded.keyBy(IngestedPosition::vehicleId, Types.STRING)
                .process(new DeduplicateResends(stateTtl))
                .name("deduplicate-resends")
                .uid("deduplicate-resends");

        SingleOutputStreamOperator<IngestedPosition> accepted = DataStreamUtils.reinterpretAsKeyedStream(
                        unique, IngestedPosition::vehicleId, Types.STRING)
                .process(new RejectImplausibleJumps(validationRules, stateTtl))
                .name("reject-implausible-jumps")
                .uid("reject-implausible-jumps");

        DataStream<RejectedRecord> rejected = decoded.getSideOutput(Rejections.SIDE_OUTPUT)
                .union(unique.getSideOutput(Rejections.SIDE_OUTPUT), accepted.getSideOutput(Rejections.SIDE_OUTPUT));
        rejected.sinkTo(deadLetterSink).name("dead-letter-sink").uid("dead-letter-sink");
        rejectedTableSink.attach(rejected);

        accepted.sinkTo(currentStateSink).name("redis-current-state").uid("redis-current-state");
        positionTableSink.attach(accepted);
    }
}
