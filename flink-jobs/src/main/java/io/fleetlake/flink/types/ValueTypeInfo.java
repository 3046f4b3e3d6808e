package io.fleetlake.flink.types;

import static java.util.Objects.requireNonNull;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * The type information of a value written by a hand-written serializer: an opaque, non-key type of one field.
 *
 * @param <T> the value type
 */
public final class ValueTypeInfo<T> extends TypeInformation<T> {
    private static final long serialVersionUID = 1L;

    private final Class<T> type;
    private final TypeSerializer<T> serializer;

    public ValueTypeInfo(Class<T> type, TypeSerializer<T> serializer) {
        this.type = requireNonNull(type, "type is null");
        this.serializer = requireNonNull(serializer, "serializer is null");
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<T> getTypeClass() {
        return type;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer.duplicate();
    }

    @Override
    public String toString() {
        return type.getSimpleName() + "<" + serializer.getClass().getSimpleName() + ">";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ValueTypeInfo<?> that
                && that.canEqual(this)
                && type == that.type
                && serializer.equals(that.serializer);
    }

    @Override
    public int hashCode() {
        return 31 * type.hashCode() + serializer.hashCode();
    }

    @Override
    public boolean canEqual(Object other) {
        return other instanceof ValueTypeInfo;
    }
}
