package io.fleetlake.model;

/** Kafka record header names written by the ingest connector and the dead-letter queue. */
public final class MessageHeaders {
    /** MQTT topic the payload was published on. */
    public static final String MQTT_TOPIC = "mqtt.topic";
    /** Epoch milliseconds at which the connector received the MQTT message. */
    public static final String MQTT_RECEIVED_AT = "mqtt.received-at";

    /** Stable {@link RejectionReason} code of a dead-lettered record. */
    public static final String DLQ_REASON = "dlq.reason";
    /** Human-readable explanation of the rejection. */
    public static final String DLQ_DETAIL = "dlq.detail";
    /** Topic, partition and offset of the record that was rejected. */
    public static final String DLQ_SOURCE_TOPIC = "dlq.source-topic";

    public static final String DLQ_SOURCE_PARTITION = "dlq.source-partition";
    public static final String DLQ_SOURCE_OFFSET = "dlq.source-offset";
    /** Epoch milliseconds at which the pipeline (or the ingest connector) rejected the record. */
    public static final String DLQ_REJECTED_AT = "dlq.rejected-at";
    /**
     * {@code true} on a dead letter whose value is only the first bytes of the original payload: the pipeline's dead
     * letter of a record too large for the producer with its headers, or the ingest connector's dead letter of an MQTT
     * payload Kafka could not take (the connector writes {@code false} when the value is the whole payload). A
     * truncated value is not the original and cannot be reprocessed; its size is in {@link #DLQ_ORIGINAL_SIZE}.
     */
    public static final String DLQ_TRUNCATED = "dlq.truncated";
    /** The size in bytes (decimal) of the original payload of a dead letter whose value may be truncated. */
    public static final String DLQ_ORIGINAL_SIZE = "dlq.original-size";

    /**
     * On a record fed back into {@link Topics#RAW_POSITIONS} by reprocessing: the dead-letter record it came from, as
     * {@code <dlq topic>/<partition>/<offset>}.
     */
    public static final String REPROCESSED_FROM = "dlq.reprocessed-from";

    /**
     * On a record of {@link Topics#LATE_POSITIONS}: the event time (epoch milliseconds) of the position that arrived after
     * its window closed; with the record key (vehicle id) it names the window a backfill must recompute.
     */
    public static final String LATE_EVENT_TIME = "late.event-time";

    private MessageHeaders() {}
}
