package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Decides what the daily audit tag of a day should be: the tag {@code audit-YYYY-MM-DD} on the newest snapshot of the
 * main branch committed before the day ended (UTC). A pure function of the table's metadata, so that creating the tag
 * is idempotent: the same day on the same table always picks the same snapshot once the day is over.
 */
final class TagPlanner {
    static final String TAG_PREFIX = "audit-";

    private TagPlanner() {}

    /** What to do when the day's tag already points to another snapshot. */
    enum ExistingTag {
        /** Fail with {@link AuditError#TAG_CONFLICT}. */
        REFUSE,
        /** Move it ({@code --force}). */
        MOVE
    }

    /**
     * @param tagName the tag
     * @param target the snapshot the tag must point to
     * @param action what committing this plan does
     * @param previousSnapshotId where the tag points now, when it exists
     */
    record TagPlan(
            String tagName,
            TableMetadataView.Snapshot target,
            TagResult.Action action,
            OptionalLong previousSnapshotId) {
        TagPlan {
            requireNonNull(tagName, "tagName is null");
            requireNonNull(target, "target is null");
            requireNonNull(action, "action is null");
            requireNonNull(previousSnapshotId, "previousSnapshotId is null");
        }
    }

    static String tagName(LocalDate day) {
        return TAG_PREFIX + day;
    }

    /**
     * @param now the current time: a day that is not over yet cannot be tagged, its last snapshot is still to come
     * @throws AuditException when the day is not over, the table has no snapshot by then, or the tag conflicts
     */
    static TagPlan plan(
            TableMetadataView metadata, AuditTable table, LocalDate day, ExistingTag existingTag, Instant now) {
        requireNonNull(metadata, "metadata is null");
        requireNonNull(table, "table is null");
        requireNonNull(day, "day is null");
        requireNonNull(existingTag, "existingTag is null");
        requireNonNull(now, "now is null");
        Instant endOfDay = day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        if (endOfDay.isAfter(now)) {
            throw new AuditException(
                    AuditError.INVALID_ARGUMENT,
                    "Day " + day + " is not over yet in UTC: tag it after " + Times.iso(endOfDay)
                            + ", or give an earlier --date");
        }
        String tagName = tagName(day);
        TableMetadataView.Snapshot target = newestBefore(metadata, table, day, endOfDay);

        Optional<TableMetadataView.Ref> existing =
                Optional.ofNullable(metadata.refs().get(tagName));
        if (existing.isEmpty()) {
            return new TagPlan(tagName, target, TagResult.Action.CREATED, OptionalLong.empty());
        }
        TableMetadataView.Ref ref = existing.get();
        if (!ref.isTag()) {
            throw new AuditException(
                    AuditError.TAG_CONFLICT,
                    table.qualifiedName() + " has a " + ref.type() + " named " + tagName + ", not a tag: rename or"
                            + " remove that " + ref.type() + " before tagging " + day);
        }
        OptionalLong previous = OptionalLong.of(ref.snapshotId());
        if (ref.snapshotId() == target.snapshotId()) {
            return new TagPlan(tagName, target, TagResult.Action.UNCHANGED, previous);
        }
        if (existingTag == ExistingTag.REFUSE) {
            throw new AuditException(
                    AuditError.TAG_CONFLICT,
                    "Tag " + tagName + " of " + table.qualifiedName() + " points to snapshot " + ref.snapshotId()
                            + committedAtText(metadata, ref.snapshotId()) + ", but the newest snapshot committed by the"
                            + " end of " + day + " (UTC) is " + target.snapshotId() + " (committed at "
                            + Times.iso(target.committedAt()) + "): pass --force to move the tag");
        }
        return new TagPlan(tagName, target, TagResult.Action.MOVED, previous);
    }

    private static TableMetadataView.Snapshot newestBefore(
            TableMetadataView metadata, AuditTable table, LocalDate day, Instant endOfDay) {
        List<TableMetadataView.Snapshot> history = metadata.mainHistory();
        if (history.isEmpty()) {
            throw new AuditException(
                    AuditError.NO_SNAPSHOT_FOR_DAY,
                    table.qualifiedName() + " has no snapshot yet: there is nothing to tag for " + day);
        }
        for (TableMetadataView.Snapshot snapshot : history) {
            if (snapshot.committedAt().isBefore(endOfDay)) {
                return snapshot;
            }
        }
        TableMetadataView.Snapshot oldest = history.get(history.size() - 1);
        String oldestText = oldest.parentId().isPresent()
                ? "its oldest snapshot still kept was committed at " + Times.iso(oldest.committedAt())
                        + " (older ones expired)"
                : "its first snapshot was committed at " + Times.iso(oldest.committedAt());
        throw new AuditException(
                AuditError.NO_SNAPSHOT_FOR_DAY,
                table.qualifiedName() + " has no snapshot committed by the end of " + day + " (UTC): " + oldestText
                        + "; give a later --date");
    }

    private static String committedAtText(TableMetadataView metadata, long snapshotId) {
        return Optional.ofNullable(metadata.snapshots().get(snapshotId))
                .map(snapshot -> " (committed at " + Times.iso(snapshot.committedAt()) + ")")
                .orElse("");
    }
}
