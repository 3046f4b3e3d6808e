package io.fleetlake.model;

/**
 * Why a record was rejected. The names are stable codes: they are written to the dead-letter topic and to
 * {@code fleet.rejected_positions}, and reprocessing selects by them. Never rename one; add new ones.
 */
public enum RejectionReason {
    /** Neither an Avro single-object message nor a JSON object, or corrupt bytes. */
    MALFORMED_PAYLOAD(Category.DEVICE),
    /** An Avro single-object message whose schema fingerprint is not in the schema store. */
    UNKNOWN_SCHEMA(Category.DEVICE),
    /** A mandatory field is absent or null. */
    MISSING_FIELD(Category.DEVICE),
    /** A field has the wrong type or an unusable value (for example an empty vehicle id). */
    INVALID_FIELD(Category.DEVICE),
    /** Latitude or longitude is NaN, infinite or outside the valid range. */
    INVALID_COORDINATES(Category.DEVICE),
    /** The payload is larger than the configured limit; it is not decoded. */
    PAYLOAD_TOO_LARGE(Category.DEVICE),
    /** The position lies outside the operating region (with its buffer). */
    OUTSIDE_REGION(Category.RULE),
    /** The reported speed is above the configured maximum. */
    SPEED_TOO_HIGH(Category.RULE),
    /** The event time is further ahead of the receive time than the allowed clock skew. */
    EVENT_TIME_IN_FUTURE(Category.RULE),
    /** The event time is older than the configured horizon. */
    EVENT_TIME_TOO_OLD(Category.RULE),
    /** Reaching the position from the vehicle's previous accepted fix needs an implausible speed (GPS glitch). */
    IMPLAUSIBLE_JUMP(Category.RULE),
    /** The vehicle already reported a different position for the same event time. */
    CONFLICTING_RESEND(Category.CONFLICT),
    /** The vehicle id does not have the configured format (for example control characters or a path). */
    INVALID_VEHICLE_ID(Category.DEVICE),
    /** The payload's vehicle id differs from the vehicle id of the MQTT topic it was published on. */
    VEHICLE_ID_MISMATCH(Category.DEVICE),
    /**
     * The ingest connector could not write the MQTT message to Kafka (larger than the producer accepts, or refused by
     * the broker); the dead letter holds a bounded preview of the payload and its size.
     */
    INGEST_REFUSED(Category.DEVICE),
    /**
     * A pipeline step failed on this record (an unexpected value or a bug); the record is kept so that it can be
     * reprocessed once the step is fixed.
     */
    PROCESSING_ERROR(Category.PIPELINE);

    private final Category category;

    RejectionReason(Category category) {
        this.category = category;
    }

    public Category category() {
        return category;
    }

    /** Who has to act on a rejection. */
    public enum Category {
        /** The device sent something wrong: firmware or hardware issue. */
        DEVICE,
        /** The record is plausible but breaks an operating rule (region, speed, time). */
        RULE,
        /** The record conflicts with what the pipeline already accepted. */
        CONFLICT,
        /** The pipeline failed on the record; an operator has to look at the detail. */
        PIPELINE
    }
}
