package io.fleetlake.maintenance.plan;

import static java.util.Objects.requireNonNull;

/**
 * What dangling-delete planning needs of a live delete file.
 *
 * @param partition the partition it belongs to (spec id and partition values); ignored for a global delete
 * @param global an equality delete of an unpartitioned spec, which applies to every partition
 */
public record DeleteFileView(
        String location, String partition, long dataSequenceNumber, boolean equality, boolean global) {
    public DeleteFileView {
        requireNonNull(location, "location is null");
        requireNonNull(partition, "partition is null");
    }
}
