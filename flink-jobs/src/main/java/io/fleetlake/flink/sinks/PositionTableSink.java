package io.fleetlake.flink.sinks;

import io.fleetlake.flink.records.IngestedPosition;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * Writes accepted positions to the lakehouse table. A seam rather than a {@code Sink}, because Iceberg's exactly-once
 * {@code FlinkSink} is a writer plus committer topology attached to a stream, not a single sink.
 */
@FunctionalInterface
public interface PositionTableSink {
    /** Attaches the sink's operators, each named and with a stable uid, to the stream of accepted positions. */
    void attach(DataStream<IngestedPosition> positions);
}
