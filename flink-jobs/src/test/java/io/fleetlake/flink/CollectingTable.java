package io.fleetlake.flink;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.sinks.RowTableSink;
import java.util.Set;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * A table sink for tests whose "rows" are the elements themselves, collected; optionally its row builder fails on some
 * vehicles, like a converter meeting a value it cannot write.
 */
public final class CollectingTable<T> implements RowTableSink<T, T> {
    private final CollectingSink<T> sink;
    private final TypeInformation<T> type;
    private final String uid;
    private final MapFunction<T, T> rows;

    private CollectingTable(CollectingSink<T> sink, TypeInformation<T> type, String uid, MapFunction<T, T> rows) {
        this.sink = requireNonNull(sink, "sink is null");
        this.type = requireNonNull(type, "type is null");
        this.uid = requireNonNull(uid, "uid is null");
        this.rows = requireNonNull(rows, "rows is null");
    }

    public static <T> CollectingTable<T> of(CollectingSink<T> sink, Class<T> type, String uid) {
        return new CollectingTable<>(sink, TypeInformation.of(type), uid, element -> element);
    }

    /** Its rows cannot be built for the elements the test names. */
    public static <T> CollectingTable<T> failingFor(
            CollectingSink<T> sink, Class<T> type, String uid, SerializablePredicate<T> fails) {
        return new CollectingTable<>(sink, TypeInformation.of(type), uid, element -> {
            if (fails.test(element)) {
                throw new IllegalArgumentException("the test's row builder refuses " + element);
            }
            return element;
        });
    }

    @Override
    public MapFunction<T, T> rows() {
        return rows;
    }

    @Override
    public TypeInformation<T> rowType() {
        return type;
    }

    @Override
    public void attachRows(DataStream<T> elements) {
        elements.rescale().sinkTo(sink).name(uid).uid(uid);
    }

    /** A serialisable predicate. */
    @FunctionalInterface
    public interface SerializablePredicate<T> extends java.io.Serializable {
        boolean test(T value);
    }

    /** For tests that refer to a vehicle set. */
    public static SerializablePredicate<io.fleetlake.flink.records.EnrichedPosition> vehicles(Set<String> ids) {
        return position -> ids.contains(position.vehicleId());
    }
}
