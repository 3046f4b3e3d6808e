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
    INVALID_COORDINATES(Category.DEVICE);

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
        CONFLICT
    }
}
