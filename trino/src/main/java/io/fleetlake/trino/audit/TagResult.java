package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import java.util.OptionalLong;

/**
 * What {@code fleet audit tag} did.
 *
 * @param table the table tagged
 * @param action created, left unchanged, or moved
 * @param tag the tag as it is now
 * @param previousSnapshotId the snapshot the tag pointed to before a move
 */
public record TagResult(AuditTable table, Action action, TagInfo tag, OptionalLong previousSnapshotId) {
    public TagResult {
        requireNonNull(table, "table is null");
        requireNonNull(action, "action is null");
        requireNonNull(tag, "tag is null");
        requireNonNull(previousSnapshotId, "previousSnapshotId is null");
    }

    public enum Action {
        /** The tag did not exist and now does. */
        CREATED,
        /** The tag already pointed to the right snapshot; nothing was written. */
        UNCHANGED,
        /** The tag pointed to another snapshot and was moved ({@code --force}). */
        MOVED
    }
}
