package io.fleetlake.model.codec;

/** How a device encoded a position. */
public enum PayloadFormat {
    /** Avro single-object encoding: {@code C3 01}, 8-byte schema fingerprint, Avro binary body. */
    AVRO,
    /** A UTF-8 JSON object with the Avro field names. */
    JSON
}
