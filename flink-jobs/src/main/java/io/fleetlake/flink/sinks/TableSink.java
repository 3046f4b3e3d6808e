package io.fleetlake.flink.sinks;

import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * Writes a stream to a lakehouse table. A seam rather than a {@code Sink}, because Iceberg's exactly-once
 * {@code FlinkSink} is a writer plus committer topology attached to a stream, not a single sink.
 *
 * @param <T> the stream's element type
 */
@FunctionalInterface
public interface TableSink<T> {
    /** Attaches the sink's operators, each named and with a stable uid, to the stream. */
    void attach(DataStream<T> stream);
}
