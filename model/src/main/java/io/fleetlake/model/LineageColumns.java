package io.fleetlake.model;

/**
 * Columns of {@code fleet.positions} that record where a row came from, next to the {@code PositionField} columns.
 * With them an auditor can go from any row back to the Kafka record it was written from.
 */
public final class LineageColumns {
    /** Partition of {@link Topics#RAW_POSITIONS} the record was read from. */
    public static final String SOURCE_PARTITION = "source_partition";
    /** Offset of the record in that partition. */
    public static final String SOURCE_OFFSET = "source_offset";
    /** Timestamp of the Kafka record: when the ingest connector received the MQTT message. */
    public static final String INGEST_TIME = "ingest_time";

    private LineageColumns() {}
}
