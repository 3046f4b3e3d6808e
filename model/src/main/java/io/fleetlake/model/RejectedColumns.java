package io.fleetlake.model;

/**
 * Columns of {@code fleet.rejected_positions}: every record the pipeline rejected, with the reason, the original bytes
 * and where it came from. Written by the pipeline, defined as a table by the catalog, read by audits.
 */
public final class RejectedColumns {
    /** When the pipeline rejected the record. */
    public static final String REJECTED_AT = "rejected_at";
    /** Stable {@link RejectionReason} name. */
    public static final String REASON = "reason";
    /** Human-readable explanation with the offending value and the limit. */
    public static final String DETAIL = "detail";

    public static final String SOURCE_TOPIC = "source_topic";
    public static final String SOURCE_PARTITION = LineageColumns.SOURCE_PARTITION;
    public static final String SOURCE_OFFSET = LineageColumns.SOURCE_OFFSET;
    /** Kafka record timestamp of the rejected record. */
    public static final String INGEST_TIME = LineageColumns.INGEST_TIME;
    /** Vehicle id from the Kafka key or the decoded payload; null when neither has one. */
    public static final String VEHICLE_ID = "vehicle_id";
    /** Event time when the payload could be decoded; null otherwise. */
    public static final String EVENT_TIME = "event_time";
    /** The original payload bytes, untouched. */
    public static final String PAYLOAD = "payload";

    public static final String PAYLOAD_SIZE = "payload_size";

    private RejectedColumns() {}
}
