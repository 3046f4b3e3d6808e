package io.fleetlake.maintenance.plan;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/** A file found in the table's location in storage. */
public record StoredFile(String location, long sizeBytes, Instant createdAt) {
    public StoredFile {
        requireNonNull(location, "location is null");
        requireNonNull(createdAt, "createdAt is null");
    }
}
