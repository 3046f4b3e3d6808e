package io.fleetlake.flink;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.functions.DecodePositions;
import io.fleetlake.flink.functions.DeduplicateResends;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.flink.sinks.PositionTableSink;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The fleet pipeline's topology: raw records → decode and minimal validation (rejections to the dead-letter sink) →
 * resend de-duplication per vehicle → current-state sink and lakehouse table. It only wires named operators with
 * stable uids (state is matched by uid on restore, so never change one); sources and sinks are passed in, so that
 * tests run the same topology on bounded sources and collecting sinks.
 */
public final class FleetPipelineJob {
    public static final String JOB_NAME = "fleet-pipeline";

    private final Source<RawRecord, ?, ?> source;
    private final Sink<RejectedRecord> deadLetterSink;
    private final Sink<IngestedPosition> currentStateSink;
    private final PositionTableSink positionTableSink;
    private final Duration dedupTtl;

    public FleetPipelineJob(
            Source<RawRecord, ?, ?> source,
            Sink<RejectedRecord> deadLetterSink,
            Sink<IngestedPosition> currentStateSink,
            PositionTableSink positionTableSink,
            Duration dedupTtl) {
        this.source = requireNonNull(source, "source is null");
        this.deadLetterSink = requireNonNull(deadLetterSink, "deadLetterSink is null");
        this.currentStateSink = requireNonNull(currentStateSink, "currentStateSink is null");
        this.positionTableSink = requireNonNull(positionTableSink, "positionTableSink is null");
        this.dedupTtl = requireNonNull(dedupTtl, "dedupTtl is null");
    }

    /** Adds the pipeline to the environment; run it with {@code execute} or {@code executeAsync}. */
    public void addTo(StreamExecutionEnvironment environment) {
        // Event time and watermarks arrive with the windowing issue; nothing here depends on them yet.
        DataStream<RawRecord> raw = environment
                .fromSource(source, WatermarkStrategy.noWatermarks(), "raw-positions-source")
                .uid("raw-positions-source");

        SingleOutputStreamOperator<IngestedPosition> decoded =
                raw.process(new DecodePositions()).name("decode-positions").uid("decode-positions");

        decoded.getSideOutput(DecodePositions.REJECTED)
                .sinkTo(deadLetterSink)
                .name("dead-letter-sink")
                .uid("dead-letter-sink");

        DataStream<IngestedPosition> unique = decoded.keyBy(IngestedPosition::vehicleId, Types.STRING)
                .process(new DeduplicateResends(dedupTtl))
                .name("deduplicate-resends")
                .uid("deduplicate-resends");

        unique.sinkTo(currentStateSink).name("redis-current-state").uid("redis-current-state");
        positionTableSink.attach(unique);
    }
}
