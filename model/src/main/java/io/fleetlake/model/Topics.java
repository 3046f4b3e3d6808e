package io.fleetlake.model;

/** Kafka topic names; defined here once and used by every component. */
public final class Topics {
    /** Device payload bytes exactly as received over MQTT; key = vehicle id. */
    public static final String RAW_POSITIONS = "gps.raw.positions";
    /** Positions that passed validation, for consumers outside the pipeline. */
    public static final String VALIDATED_POSITIONS = "gps.validated.positions";
    /** Rejected records: original bytes as value, reason and lineage as headers. */
    public static final String DLQ_POSITIONS = "gps.dlq.positions";
    /**
     * Ledger of dead-lettered records already fed back into the pipeline (compacted; key = DLQ partition and offset),
     * so that reprocessing twice never republishes a record twice.
     */
    public static final String DLQ_REPROCESSED = "gps.dlq.reprocessed";
    /** Positions that arrived after their window closed. */
    public static final String LATE_POSITIONS = "gps.late.positions";

    private Topics() {}
}
