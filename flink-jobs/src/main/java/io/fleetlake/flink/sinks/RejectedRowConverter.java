package io.fleetlake.flink.sinks;

import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.RejectedColumns;
import io.fleetlake.model.Tables;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;

/**
 * Builds the row of {@code fleet.rejected_positions} for a {@link RejectedRecord}, by column name in the table's
 * column order (see {@link ColumnMapping}). The payload is stored byte for byte; a Kafka record without a value is
 * stored as an empty payload of size 0 (the dead-letter topic keeps the null).
 */
public final class RejectedRowConverter implements MapFunction<RejectedRecord, RowData> {
    private static final long serialVersionUID = 1L;
    private static final byte[] NO_PAYLOAD = new byte[0];

    private final ColumnMapping<RejectedRecord, RejectedColumn> columns;

    public RejectedRowConverter(Schema schema) {
        this.columns = new ColumnMapping<>(schema, RejectedColumn.class, Tables.qualified(Tables.REJECTED_POSITIONS));
    }

    /** The names of every column the pipeline writes. */
    public static List<String> columnNames() {
        return Arrays.stream(RejectedColumn.values())
                .map(RejectedColumn::columnName)
                .toList();
    }

    @Override
    public RowData map(RejectedRecord rejected) {
        return columns.toRow(rejected);
    }

    private enum RejectedColumn implements TableColumn<RejectedRecord> {
        REJECTED_AT(RejectedColumns.REJECTED_AT, Type.TypeID.TIMESTAMP, rejected -> timestamp(rejected.rejectedAt())),
        REASON(
                RejectedColumns.REASON,
                Type.TypeID.STRING,
                rejected -> StringData.fromString(rejected.reason().name())),
        DETAIL(RejectedColumns.DETAIL, Type.TypeID.STRING, rejected -> StringData.fromString(rejected.detail())),
        SOURCE_TOPIC(
                RejectedColumns.SOURCE_TOPIC,
                Type.TypeID.STRING,
                rejected -> StringData.fromString(rejected.source().topic())),
        SOURCE_PARTITION(RejectedColumns.SOURCE_PARTITION, Type.TypeID.INTEGER, rejected -> rejected.source()
                .partition()),
        SOURCE_OFFSET(RejectedColumns.SOURCE_OFFSET, Type.TypeID.LONG, rejected -> rejected.source()
                .offset()),
        INGEST_TIME(
                RejectedColumns.INGEST_TIME,
                Type.TypeID.TIMESTAMP,
                rejected -> timestamp(rejected.source().timestamp())),
        VEHICLE_ID(
                RejectedColumns.VEHICLE_ID,
                Type.TypeID.STRING,
                rejected -> rejected.vehicleId() == null ? null : StringData.fromString(rejected.vehicleId())),
        EVENT_TIME(RejectedColumns.EVENT_TIME, Type.TypeID.TIMESTAMP, rejected -> timestamp(rejected.eventTime())),
        PAYLOAD(
                RejectedColumns.PAYLOAD,
                Type.TypeID.BINARY,
                rejected -> rejected.source().value() == null
                        ? NO_PAYLOAD
                        : rejected.source().value()),
        PAYLOAD_SIZE(RejectedColumns.PAYLOAD_SIZE, Type.TypeID.INTEGER, RejectedRecord::payloadSize);

        private final String columnName;
        private final Type.TypeID type;
        private final Function<RejectedRecord, Object> value;

        RejectedColumn(String columnName, Type.TypeID type, Function<RejectedRecord, Object> value) {
            this.columnName = columnName;
            this.type = type;
            this.value = value;
        }

        private static TimestampData timestamp(Instant instant) {
            return instant == null ? null : TimestampData.fromInstant(instant);
        }

        @Override
        public String columnName() {
            return columnName;
        }

        @Override
        public Type.TypeID type() {
            return type;
        }

        @Override
        public boolean requiredInTable() {
            return true;
        }

        @Override
        public Object value(RejectedRecord element) {
            return value.apply(element);
        }
    }
}
