package io.fleetlake.trino.audit;

import io.fleetlake.model.EnrichmentColumns;
import io.fleetlake.model.LineageColumns;
import io.fleetlake.model.PlaceColumns;
import io.fleetlake.model.codec.PositionField;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

/** The audit answers as {@link ResultTable}s, with the column names the commands print. */
public final class AuditResultTables {
    static final List<String> FIX_COLUMNS = List.of(
            PositionField.EVENT_TIME.fieldName(),
            PositionField.LATITUDE.fieldName(),
            PositionField.LONGITUDE.fieldName(),
            PositionField.SPEED_KMH.fieldName(),
            PositionField.HEADING_DEG.fieldName(),
            EnrichmentColumns.STATUS,
            EnrichmentColumns.ROUTE_ID,
            EnrichmentColumns.NEXT_STOP_ID,
            PlaceColumns.PLACE_NAME,
            PlaceColumns.PROVINCE,
            LineageColumns.INGEST_TIME,
            LineageColumns.SOURCE_PARTITION,
            LineageColumns.SOURCE_OFFSET);

    private AuditResultTables() {}

    public static ResultTable track(List<TrackPoint> track) {
        return new ResultTable(
                FIX_COLUMNS, track.stream().map(AuditResultTables::fixCells).toList());
    }

    public static ResultTable whereAt(WhereAt answer) {
        List<String> columns = new ArrayList<>(List.of("vehicle_id", "at", "known_at", "fix_age_seconds"));
        columns.addAll(FIX_COLUMNS);
        List<List<Object>> rows = answer.fix().stream()
                .map(fix -> {
                    List<Object> row = new ArrayList<>(Arrays.asList(
                            answer.vehicleId(),
                            answer.at(),
                            answer.knownAt() instanceof AsOf.InstantVersion version
                                    ? version.instant()
                                    : answer.knownAt().describe(),
                            seconds(answer.fixAge().orElseThrow())));
                    row.addAll(fixCells(fix));
                    return row;
                })
                .toList();
        return new ResultTable(columns, rows);
    }

    public static ResultTable snapshots(AuditTable table, List<SnapshotAddition> snapshots) {
        List<String> columns = new ArrayList<>(List.of(
                "snapshot_id",
                "parent_id",
                "committed_at",
                "operation",
                "added_records",
                "deleted_records",
                "total_records"));
        boolean lateArrivals = table == AuditTable.POSITIONS;
        if (lateArrivals) {
            columns.addAll(List.of("live_records", "late_records", "oldest_event_time"));
        }
        List<List<Object>> rows = snapshots.stream()
                .map(snapshot -> {
                    List<Object> row = new ArrayList<>(Arrays.asList(
                            snapshot.snapshotId(),
                            boxed(snapshot.parentId()),
                            snapshot.committedAt(),
                            snapshot.operation(),
                            snapshot.addedRecords(),
                            snapshot.deletedRecords(),
                            snapshot.totalRecords()));
                    if (lateArrivals) {
                        row.add(boxed(snapshot.liveRecords()));
                        row.add(boxed(snapshot.lateRecords()));
                        row.add(snapshot.oldestEventTime().orElse(null));
                    }
                    return row;
                })
                .toList();
        return new ResultTable(columns, rows);
    }

    public static ResultTable rejections(List<RejectionCount> counts) {
        return new ResultTable(
                List.of("bucket_start", "reason", "category", "rejections", "vehicles"),
                counts.stream()
                        .map(count -> Arrays.<Object>asList(
                                count.bucketStart(),
                                count.reason(),
                                count.category().map(Enum::name).orElse(null),
                                count.rejections(),
                                count.vehicles()))
                        .toList());
    }

    public static ResultTable tags(AuditTable table, List<TagInfo> tags) {
        return new ResultTable(
                List.of("table", "tag", "snapshot_id", "committed_at", "max_ref_age", "expires_at"),
                tags.stream()
                        .map(tag -> Arrays.<Object>asList(
                                table.qualifiedName(),
                                tag.name(),
                                tag.snapshotId(),
                                tag.committedAt().orElse(null),
                                tag.maxRefAge().map(AuditResultTables::age).orElse(null),
                                tag.expiresAt().orElse(null)))
                        .toList());
    }

    public static ResultTable tagResult(TagResult result) {
        TagInfo tag = result.tag();
        return new ResultTable(
                List.of(
                        "table",
                        "tag",
                        "action",
                        "snapshot_id",
                        "committed_at",
                        "previous_snapshot_id",
                        "max_ref_age",
                        "expires_at"),
                List.of(Arrays.asList(
                        result.table().qualifiedName(),
                        tag.name(),
                        result.action().name(),
                        tag.snapshotId(),
                        tag.committedAt().orElse(null),
                        boxed(result.previousSnapshotId()),
                        tag.maxRefAge().map(AuditResultTables::age).orElse(null),
                        tag.expiresAt().orElse(null))));
    }

    private static List<Object> fixCells(TrackPoint fix) {
        return Arrays.asList(
                fix.eventTime(),
                fix.latitude(),
                fix.longitude(),
                fix.speedKmh(),
                fix.headingDeg(),
                fix.status().orElse(null),
                fix.routeId().orElse(null),
                fix.nextStopId().orElse(null),
                fix.placeName().orElse(null),
                fix.province().orElse(null),
                fix.ingestTime(),
                fix.sourcePartition(),
                fix.sourceOffset());
    }

    private static Long boxed(OptionalLong value) {
        return value.isPresent() ? value.getAsLong() : null;
    }

    /** Seconds with millisecond precision. */
    static Double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }

    /** A retention as the options take it: {@code 400d}, {@code 36h}, {@code 90m}, {@code 30s}, else ISO-8601. */
    static String age(Duration duration) {
        if (duration.isZero() || duration.isNegative()) {
            return duration.toString();
        }
        if (duration.toMillis() % Duration.ofDays(1).toMillis() == 0) {
            return duration.toDays() + "d";
        }
        if (duration.toMillis() % Duration.ofHours(1).toMillis() == 0) {
            return duration.toHours() + "h";
        }
        if (duration.toMillis() % Duration.ofMinutes(1).toMillis() == 0) {
            return duration.toMinutes() + "m";
        }
        if (duration.toMillis() % 1000 == 0) {
            return duration.toSeconds() + "s";
        }
        return duration.toString();
    }
}
