package io.fleetlake.flink.sinks;

import org.apache.iceberg.types.Type;

/**
 * A column the pipeline writes: its name in the table, its Iceberg type and its value in Flink's internal
 * representation ({@code StringData}, {@code TimestampData}, boxed numbers, {@code byte[]}). Implemented by enums, so
 * that a converter travels to the tasks as a few constant names.
 *
 * @param <T> the element a row is built from
 */
interface TableColumn<T> {
    String columnName();

    Type.TypeID type();

    /**
     * Whether the table must have this column. A column that was added to the table after its first release is
     * written when the table has it, so that the pipeline still runs against a table that was not migrated yet.
     */
    boolean requiredInTable();

    Object value(T element);
}
