package io.fleetlake.flink.types;

import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Base of the pipeline's hand-written serializers for immutable values (records): nothing to copy, no configuration,
 * so one stateless instance serves every thread. They replace Flink's reflective POJO serializer (and Kryo, which the
 * pipeline disables with {@code pipeline.generic-types: false}) on the records that cross a network edge or live in
 * state, where a record is written field by field without reflection.
 *
 * <p>A format change must stay readable: each value starts with nothing but its fields today, so a new field is added
 * by a new serializer class with a snapshot of its own (the old snapshot class stays and restores the old format).
 *
 * @param <T> the record type
 */
public abstract class ImmutableValueSerializer<T> extends org.apache.flink.api.common.typeutils.TypeSerializer<T> {
    private static final long serialVersionUID = 1L;

    @Override
    public final boolean isImmutableType() {
        return true;
    }

    @Override
    public final ImmutableValueSerializer<T> duplicate() {
        return this;
    }

    @Override
    public final T createInstance() {
        return null;
    }

    @Override
    public final T copy(T from) {
        return from;
    }

    @Override
    public final T copy(T from, T reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public final T deserialize(T reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public final void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public final boolean equals(Object other) {
        return other != null && other.getClass() == getClass();
    }

    @Override
    public final int hashCode() {
        return getClass().hashCode();
    }
}
