package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Which state of a table an audit reads: the current one, or an earlier one by Iceberg time travel. Renders the Trino
 * time-travel clause that follows the table name.
 *
 * <p>Trino 476 does not bind {@code ?} parameters inside {@code FOR VERSION AS OF} / {@code FOR TIMESTAMP AS OF} (it
 * reports "Incorrect number of parameters: expected 0"), so the clause is a literal. Each kind renders only values it
 * produced itself: digits of a {@code long}, a formatted instant, or a tag name with quotes doubled.
 */
public sealed interface AsOf permits AsOf.Current, AsOf.SnapshotVersion, AsOf.TagVersion, AsOf.InstantVersion {
    /** The table as it stands now. */
    public static AsOf current() {
        return new Current();
    }

    /** The table as it stood at a snapshot. */
    public static AsOf snapshot(long snapshotId) {
        return new SnapshotVersion(snapshotId);
    }

    /** The table as it stood at the snapshot a tag (or branch) points to. */
    public static AsOf tag(String name) {
        return new TagVersion(name);
    }

    /** The table as it stood at an instant: its newest snapshot committed at or before it. */
    public static AsOf instant(Instant instant) {
        return new InstantVersion(instant);
    }

    /** The clause that follows the table name; empty for the current state. */
    String clause();

    /** How messages name this state, for example {@code snapshot 123} or {@code tag audit-2026-11-28}. */
    String describe();

    record Current() implements AsOf {
        @Override
        public String clause() {
            return "";
        }

        @Override
        public String describe() {
            return "now";
        }
    }

    /** @param snapshotId an Iceberg snapshot id */
    record SnapshotVersion(long snapshotId) implements AsOf {
        @Override
        public String clause() {
            // A small id written as a bare literal would be an integer, which Trino refuses as a table version.
            return "FOR VERSION AS OF BIGINT '" + snapshotId + "'";
        }

        @Override
        public String describe() {
            return "snapshot " + snapshotId;
        }
    }

    /** @param name a tag or branch name */
    record TagVersion(String name) implements AsOf {
        public TagVersion {
            requireNonNull(name, "name is null");
            if (name.isBlank() || name.chars().anyMatch(Character::isISOControl)) {
                throw new AuditException(
                        AuditError.INVALID_ARGUMENT,
                        "Tag name '" + name + "' is empty or has control characters: list the tags with fleet audit"
                                + " tags");
            }
        }

        @Override
        public String clause() {
            return "FOR VERSION AS OF '" + name.replace("'", "''") + "'";
        }

        @Override
        public String describe() {
            return "tag " + name;
        }
    }

    /** @param instant the instant; Trino resolves it to milliseconds */
    record InstantVersion(Instant instant) implements AsOf {
        private static final DateTimeFormatter LITERAL =
                DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

        public InstantVersion {
            requireNonNull(instant, "instant is null");
        }

        @Override
        public String clause() {
            return "FOR TIMESTAMP AS OF TIMESTAMP '" + LITERAL.format(instant) + " UTC'";
        }

        @Override
        public String describe() {
            return Times.iso(instant);
        }
    }
}
