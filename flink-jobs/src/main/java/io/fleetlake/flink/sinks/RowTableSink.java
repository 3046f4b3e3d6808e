package io.fleetlake.flink.sinks;

import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * A table whose rows are built by the pipeline's per-record step, not by the sink: a record whose row cannot be built
 * is then dead-lettered there, like any other failure of that step, instead of failing the sink. The sink only writes
 * the rows it receives.
 *
 * @param <T> the pipeline's element type
 * @param <R> the row type
 */
public interface RowTableSink<T, R> {
    /** Builds the row of one element; serialisable, it runs in the per-record step. */
    MapFunction<T, R> rows();

    TypeInformation<R> rowType();

    /** Attaches the sink's operators, each named and with a stable uid, to the stream of rows. */
    void attachRows(DataStream<R> rows);
}
