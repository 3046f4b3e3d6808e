package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.model.RejectedColumns;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.codec.PositionField;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The time-travel audits as a plain Java API: the {@code fleet audit} commands call it, and so can tests and tools.
 * Questions go to Trino over JDBC ({@code iceberg.fleet.*}, the SQL library next to this class); tags go to the
 * Iceberg REST catalog, because Trino cannot create them.
 *
 * <p>Every method throws {@link AuditException} with a one-line message that says what to do; its {@link AuditError}
 * tells user errors (exit status 2) from a stack that is down or failing (exit status 1).
 */
public final class AuditQueries {
    /** How far before the instant {@link #whereAt} looks for a fix. */
    public static final Duration DEFAULT_LOOKBACK = Duration.ofDays(7);
    /** A row is a late arrival when its event time is older than its snapshot's commit by more than this. */
    public static final Duration DEFAULT_LATE_THRESHOLD = Duration.ofMinutes(5);
    /** How long snapshot expiry keeps a daily audit tag ({@code max-ref-age-ms}). */
    public static final Duration DEFAULT_TAG_RETENTION = Duration.ofDays(400);

    static final String VEHICLE_EXISTS_COUNT = "positions";
    private static final int TAG_COMMIT_ATTEMPTS = 3;

    private final AuditConfig config;
    private final TrinoClient trino;
    private final CatalogRestCalls catalog;
    private final ObjectMapper mapper;
    private final Clock clock;

    public AuditQueries(AuditConfig config) {
        this(config, Clock.systemUTC());
    }

    /** @param clock what "now" is: a day can be tagged once it is over */
    public AuditQueries(AuditConfig config, Clock clock) {
        this.config = requireNonNull(config, "config is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.mapper = new ObjectMapper();
        this.trino = new TrinoClient(config);
        this.catalog =
                new CatalogRestCalls(config.catalogUri(), config.catalogTimeout(), mapper, config.catalogCredential());
    }

    /**
     * The track of a vehicle: its fixes with {@code from <= event_time < to}, oldest first, as the table stands now or
     * stood at {@code asOf}. Empty when the vehicle was quiet in the range.
     *
     * @throws AuditException {@link AuditError#UNKNOWN_VEHICLE} when the vehicle has no positions at all
     */
    public List<TrackPoint> track(String vehicleId, Instant from, Instant to, AsOf asOf) {
        requireVehicleId(vehicleId);
        requireNonNull(from, "from is null");
        requireNonNull(to, "to is null");
        requireNonNull(asOf, "asOf is null");
        if (!to.isAfter(from)) {
            throw new AuditException(
                    AuditError.INVALID_ARGUMENT,
                    "The range is empty: --to " + Times.iso(to) + " is not after --from " + Times.iso(from));
        }
        List<TrackPoint> track =
                run(AuditStatements.track(vehicleId, from, to, asOf), TrackPoint::read, AuditTable.POSITIONS, asOf);
        if (track.isEmpty()) {
            requireKnownVehicle(vehicleId);
        }
        return track;
    }

    /** {@link #whereAt(String, Instant, AsOf, Duration)} with the {@link #DEFAULT_LOOKBACK}. */
    public WhereAt whereAt(String vehicleId, Instant at, AsOf knownAt) {
        return whereAt(vehicleId, at, knownAt, DEFAULT_LOOKBACK);
    }

    /**
     * Where the vehicle was at {@code at}: its newest fix with event time at or before {@code at} and after
     * {@code at - lookback}, as the table stood at {@code knownAt}.
     *
     * @throws AuditException {@link AuditError#UNKNOWN_VEHICLE} when the vehicle has no positions at all
     */
    public WhereAt whereAt(String vehicleId, Instant at, AsOf knownAt, Duration lookback) {
        requireVehicleId(vehicleId);
        requireNonNull(at, "at is null");
        requireNonNull(knownAt, "knownAt is null");
        requirePositive("The look-back", lookback);
        List<TrackPoint> fixes = run(
                AuditStatements.whereAt(vehicleId, at, lookback, knownAt),
                TrackPoint::read,
                AuditTable.POSITIONS,
                knownAt);
        if (fixes.isEmpty()) {
            requireKnownVehicle(vehicleId);
        }
        return new WhereAt(vehicleId, at, knownAt, lookback, fixes.stream().findFirst());
    }

    /**
     * What each snapshot of the table committed at or after {@code since} added, oldest first; for
     * {@code fleet.positions} also how many of the added rows arrived late (event time older than the commit by more
     * than {@code lateThreshold}).
     */
    public List<SnapshotAddition> snapshotAdditions(AuditTable table, Instant since, Duration lateThreshold) {
        requireNonNull(table, "table is null");
        requireNonNull(since, "since is null");
        requirePositive("The late-arrival threshold", lateThreshold);
        // Snapshots first: the late-arrival scan that follows sees every file those snapshots added.
        List<SnapshotAddition> snapshots = run(
                AuditStatements.snapshots(table, since),
                row -> new SnapshotAddition(
                        row.longValue("snapshot_id"),
                        row.optionalLong("parent_id"),
                        row.instant("committed_at"),
                        row.string("operation"),
                        row.longValue("added_records"),
                        row.longValue("deleted_records"),
                        row.longValue("total_records"),
                        OptionalLong.empty(),
                        OptionalLong.empty(),
                        Optional.empty()),
                table,
                AsOf.current());
        if (table != AuditTable.POSITIONS) {
            return snapshots;
        }
        Map<Long, LateArrivals> late = new HashMap<>();
        run(
                        AuditStatements.lateArrivals(since, lateThreshold),
                        row -> new LateArrivals(
                                row.longValue("snapshot_id"),
                                row.longValue("live_records"),
                                row.longValue("late_records"),
                                row.optionalInstant("oldest_event_time")),
                        table,
                        AsOf.current())
                .forEach(arrivals -> late.put(arrivals.snapshotId(), arrivals));
        return snapshots.stream()
                .map(snapshot -> {
                    LateArrivals arrivals =
                            late.getOrDefault(snapshot.snapshotId(), LateArrivals.none(snapshot.snapshotId()));
                    return new SnapshotAddition(
                            snapshot.snapshotId(),
                            snapshot.parentId(),
                            snapshot.committedAt(),
                            snapshot.operation(),
                            snapshot.addedRecords(),
                            snapshot.deletedRecords(),
                            snapshot.totalRecords(),
                            OptionalLong.of(arrivals.liveRecords()),
                            OptionalLong.of(arrivals.lateRecords()),
                            arrivals.oldestEventTime());
                })
                .toList();
    }

    /** Rejected positions with {@code from <= rejected_at < to}, counted by time bucket (UTC) and reason. */
    public List<RejectionCount> rejectionsByReason(Instant from, Instant to, RejectionBucket bucket) {
        requireNonNull(from, "from is null");
        requireNonNull(to, "to is null");
        requireNonNull(bucket, "bucket is null");
        if (!to.isAfter(from)) {
            throw new AuditException(
                    AuditError.INVALID_ARGUMENT,
                    "The range is empty: --to " + Times.iso(to) + " is not after --from " + Times.iso(from));
        }
        return run(
                AuditStatements.rejectionsByReason(from, to, bucket),
                row -> {
                    String reason = row.string(RejectedColumns.REASON);
                    return new RejectionCount(
                            row.instant("bucket_start"),
                            reason,
                            categoryOf(reason),
                            row.longValue("rejections"),
                            row.longValue("vehicles"));
                },
                AuditTable.REJECTED_POSITIONS,
                AsOf.current());
    }

    /**
     * Creates the daily audit tag {@code audit-YYYY-MM-DD} on the newest snapshot of the main branch committed before
     * the end of {@code day} (UTC), kept by snapshot expiry for {@code keep} after that snapshot's commit. Idempotent:
     * when the tag already points to that snapshot nothing is written.
     *
     * @throws AuditException {@link AuditError#TAG_CONFLICT} when the tag points to another snapshot (see
     *     {@link #retag})
     */
    public TagResult tag(AuditTable table, LocalDate day, Duration keep) {
        return tag(table, day, keep, TagPlanner.ExistingTag.REFUSE);
    }

    /** Like {@link #tag}, but moves an existing tag that points to another snapshot ({@code --force}). */
    public TagResult retag(AuditTable table, LocalDate day, Duration keep) {
        return tag(table, day, keep, TagPlanner.ExistingTag.MOVE);
    }

    /** The tags of the table, by name, from the REST catalog. */
    public List<TagInfo> tags(AuditTable table) {
        requireNonNull(table, "table is null");
        return catalog.loadTable(table).tags();
    }

    private TagResult tag(AuditTable table, LocalDate day, Duration keep, TagPlanner.ExistingTag existingTag) {
        requireNonNull(table, "table is null");
        requireNonNull(day, "day is null");
        requirePositive("The tag retention", keep);
        for (int attempt = 1; attempt <= TAG_COMMIT_ATTEMPTS; attempt++) {
            TableMetadataView metadata = catalog.loadTable(table);
            TagPlanner.TagPlan plan = TagPlanner.plan(metadata, table, day, existingTag, clock.instant());
            if (plan.action() == TagResult.Action.UNCHANGED) {
                return new TagResult(
                        table,
                        plan.action(),
                        metadata.tagInfo(metadata.refs().get(plan.tagName())),
                        plan.previousSnapshotId());
            }
            Optional<TableMetadataView> committed =
                    catalog.commit(table, TagCommits.setTag(mapper, metadata.tableUuid(), table, plan, keep));
            if (committed.isPresent()) {
                TableMetadataView.Ref ref = committed.get().refs().get(plan.tagName());
                if (ref == null
                        || !ref.isTag()
                        || ref.snapshotId() != plan.target().snapshotId()) {
                    throw new AuditException(
                            AuditError.CATALOG_FAILED,
                            "The Iceberg REST catalog at " + config.catalogUri() + " accepted tag " + plan.tagName()
                                    + " on snapshot " + plan.target().snapshotId() + " but its metadata does not"
                                    + " show it: check the catalog with fleet audit tags");
                }
                return new TagResult(table, plan.action(), committed.get().tagInfo(ref), plan.previousSnapshotId());
            }
            // 409: the table or the tag changed since it was loaded; plan again on the new metadata.
        }
        throw new AuditException(
                AuditError.CATALOG_FAILED,
                "Tagging " + table.qualifiedName() + " for " + day + " conflicted with other commits "
                        + TAG_COMMIT_ATTEMPTS + " times: try again");
    }

    private <T> List<T> run(AuditStatement statement, TrinoClient.RowReader<T> reader, AuditTable table, AsOf asOf) {
        try {
            return trino.query(statement, reader);
        } catch (TrinoClient.TrinoQueryException e) {
            AuditException translated = AuditErrors.from(
                    e.failure(), config.redactedTrinoJdbcUrl(), table, asOf, () -> oldestSnapshot(table));
            translated.addSuppressed(e);
            throw translated;
        }
    }

    private Optional<AuditErrors.OldestSnapshot> oldestSnapshot(AuditTable table) {
        return run(
                        AuditStatements.oldestSnapshot(table),
                        row -> new AuditErrors.OldestSnapshot(
                                row.instant("made_current_at"),
                                row.optionalLong("parent_id").isEmpty()),
                        table,
                        AsOf.current())
                .stream()
                .findFirst();
    }

    private void requireKnownVehicle(String vehicleId) {
        long positions = run(
                        AuditStatements.vehicleExists(vehicleId),
                        row -> row.longValue(VEHICLE_EXISTS_COUNT),
                        AuditTable.POSITIONS,
                        AsOf.current())
                .get(0);
        if (positions > 0) {
            return;
        }
        String suggestion;
        try {
            List<String> similar = trino.query(
                    AuditStatements.vehicleSuggestions(vehicleId),
                    row -> row.string(PositionField.VEHICLE_ID.fieldName()));
            suggestion = similar.isEmpty() ? "" : "; similar ids: " + String.join(", ", similar);
        } catch (TrinoClient.TrinoQueryException e) {
            // The answer stands without suggestions; say why there are none rather than hide the failure.
            suggestion = " (similar ids could not be looked up: " + e.failure().trinoMessage() + ")";
        }
        throw new AuditException(
                AuditError.UNKNOWN_VEHICLE,
                "Vehicle " + vehicleId + " has no positions in " + AuditTable.POSITIONS.qualifiedName() + suggestion);
    }

    private static void requireVehicleId(String vehicleId) {
        if (vehicleId == null || vehicleId.isBlank()) {
            throw new AuditException(AuditError.INVALID_ARGUMENT, "No vehicle given: pass --vehicle <id>");
        }
    }

    private static void requirePositive(String what, Duration duration) {
        requireNonNull(duration, "duration is null");
        if (duration.isNegative() || duration.isZero()) {
            throw new AuditException(AuditError.INVALID_ARGUMENT, what + " " + duration + " must be longer than zero");
        }
    }

    private static Optional<RejectionReason.Category> categoryOf(String reason) {
        return Arrays.stream(RejectionReason.values())
                .filter(known -> known.name().equals(reason))
                .findFirst()
                .map(RejectionReason::category);
    }

    private record LateArrivals(
            long snapshotId, long liveRecords, long lateRecords, Optional<Instant> oldestEventTime) {
        static LateArrivals none(long snapshotId) {
            return new LateArrivals(snapshotId, 0, 0, Optional.empty());
        }
    }
}
