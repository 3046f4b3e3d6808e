package io.fleetlake.spark.geocode;

import static java.util.Objects.requireNonNull;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import io.fleetlake.geocoding.ReverseGeocoder;
import io.fleetlake.model.PlaceColumns;
import io.fleetlake.model.Tables;
import io.fleetlake.spark.LocalSparkSession;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.ManageSnapshots;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.spark.Spark3Util;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names the positions of {@code fleet.positions} after their nearest place, into {@code fleet.position_places}, reading
 * only what changed since the previous run ({@link GeocodePlan}).
 *
 * <p><b>Exactly once per position, and atomically.</b> The table property {@value #PROCESSED_SNAPSHOT_PROPERTY} of
 * {@code fleet.position_places} holds the snapshot of {@code fleet.positions} the last run processed up to. A run
 * <ol>
 *   <li>plans from that property and pins the current snapshot of the positions as its end;
 *   <li>reads the positions of its plan and names them (Spark, the geocoder broadcast to the executors);
 *   <li>merges them into a staging branch of {@code fleet.position_places} created from its main branch: MERGE on the
 *       key (vehicle_id, event_time), inserting new keys and replacing a row only when its coordinates or gazetteer
 *       changed, so rows already there are left alone;
 *   <li>in one Iceberg transaction fast-forwards the main branch to the staging branch, removes the staging branch
 *       and sets the property to the end snapshot.
 * </ol>
 * Readers of the main branch see the old places and property or the new ones, never one without the other. A run that
 * fails or is killed before step 4 leaves main and the property untouched (its staging branch is removed by the next
 * run), so the next run reads the same positions again. A rerun over the same snapshots finds none to read and commits
 * nothing. Two runs at once: the second fast-forward fails because main moved, and that run writes nothing.
 */
public final class GeocodeJob {
    /** Table property: the snapshot of {@code fleet.positions} the last run processed up to. */
    public static final String PROCESSED_SNAPSHOT_PROPERTY = "fleet.geocode.positions-snapshot-id";

    /** Table property: the gazetteer version of the last run. */
    public static final String GAZETTEER_PROPERTY = "fleet.geocode.gazetteer";

    /** Staging branches are named with this prefix and the run's start in epoch milliseconds. */
    static final String STAGING_BRANCH_PREFIX = "geocode_";

    /** A staging branch older than this belongs to a run that died; the next run removes it. */
    static final Duration STALE_BRANCH_AGE = Duration.ofHours(1);

    public static final String POSITIONS = LocalSparkSession.CATALOG + "." + Tables.qualified(Tables.POSITIONS);
    public static final String PLACES = LocalSparkSession.CATALOG + "." + Tables.qualified(Tables.POSITION_PLACES);

    /** The columns of {@code fleet.position_places}, in table order. */
    static final List<String> PLACE_COLUMNS = List.of(
            PlaceColumns.VEHICLE_ID,
            PlaceColumns.EVENT_TIME,
            PlaceColumns.LATITUDE,
            PlaceColumns.LONGITUDE,
            PlaceColumns.PLACE_NAME,
            PlaceColumns.MUNICIPALITY,
            PlaceColumns.PROVINCE,
            PlaceColumns.REGION,
            PlaceColumns.COUNTRY_CODE,
            PlaceColumns.COUNTRY,
            PlaceColumns.DISTANCE_KM,
            PlaceColumns.GAZETTEER,
            PlaceColumns.GEOCODED_AT);

    private static final Logger LOG = LoggerFactory.getLogger(GeocodeJob.class);

    private final SparkSession spark;
    private final ReverseGeocoder geocoder;
    private final Clock clock;

    /**
     * @param spark a session with the fleet's Iceberg catalog and Iceberg's SQL extensions, see {@link
     *     GeocodeMain#sparkSettings}
     * @param geocoder over the bundled gazetteer (it is broadcast to the executors)
     */
    public GeocodeJob(SparkSession spark, ReverseGeocoder geocoder, Clock clock) {
        this.spark = requireNonNull(spark, "spark is null");
        this.geocoder = requireNonNull(geocoder, "geocoder is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * @param full reread every position of the current snapshot
     * @param since also reread the snapshots committed at or after this instant
     */
    public GeocodeResult run(boolean full, Optional<Instant> since) {
        requireNonNull(since, "since is null");
        long started = System.nanoTime();
        Instant now = clock.instant();
        Table positions = table(POSITIONS);
        Table places = table(PLACES);
        removeStaleBranches(places, now);
        GeocodePlan plan = GeocodePlan.of(positions, processedSnapshot(places), since, full);
        LOG.info(
                "Plan: {} ({}); {} new snapshots of {}, {} of them appends",
                plan.mode(),
                plan.reason(),
                plan.newSnapshots(),
                Tables.qualified(Tables.POSITIONS),
                plan.appendSnapshots());
        if (plan.mode() == GeocodePlan.Mode.UP_TO_DATE) {
            return new GeocodeResult(plan, 0, 0, 0, currentSnapshot(places), elapsedSince(started));
        }

        Dataset<Row> geocoded = geocode(read(plan), now).persist();
        try {
            long read = geocoded.count();
            long named =
                    geocoded.filter(col(PlaceColumns.PLACE_NAME).isNotNull()).count();
            LOG.info(
                    "Geocoded {} positions ({} named, {} with no place within {} km) in {} s",
                    read,
                    named,
                    read - named,
                    geocoder.maxDistanceKm(),
                    seconds(elapsedSince(started)));
            long written = read == 0 ? recordProcessed(places, plan) : commit(places, geocoded, plan, now);
            places.refresh();
            GeocodeResult result =
                    new GeocodeResult(plan, read, named, written, currentSnapshot(places), elapsedSince(started));
            LOG.info(
                    "Committed {}: {} rows written, processed up to snapshot {} of {}",
                    Tables.qualified(Tables.POSITION_PLACES),
                    written,
                    plan.toInclusive().getAsLong(),
                    Tables.qualified(Tables.POSITIONS));
            return result;
        } finally {
            geocoded.unpersist();
        }
    }

    private Dataset<Row> read(GeocodePlan plan) {
        var reader = spark.read().format("iceberg");
        if (plan.mode() == GeocodePlan.Mode.INCREMENTAL) {
            reader = reader.option("start-snapshot-id", plan.fromExclusive().getAsLong())
                    .option("end-snapshot-id", plan.toInclusive().getAsLong());
        } else {
            reader = reader.option("snapshot-id", plan.toInclusive().getAsLong());
        }
        return reader.load(POSITIONS)
                .select(Arrays.stream(GeocodeFunction.INPUT.fieldNames())
                        .map(Column::new)
                        .toArray(Column[]::new))
                // A position stored twice (a device resend past the pipeline's de-duplication window) is one key.
                .dropDuplicates(PlaceColumns.VEHICLE_ID, PlaceColumns.EVENT_TIME);
    }

    private Dataset<Row> geocode(Dataset<Row> positions, Instant now) {
        Broadcast<ReverseGeocoder> shared =
                JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(geocoder);
        return positions
                .mapPartitions(new GeocodeFunction(shared), Encoders.row(GeocodeFunction.OUTPUT))
                .withColumn(PlaceColumns.GAZETTEER, lit(geocoder.gazetteer().version()))
                .withColumn(PlaceColumns.GEOCODED_AT, lit(Timestamp.from(now)))
                .select(PLACE_COLUMNS.stream().map(Column::new).toArray(Column[]::new));
    }

    /** Steps 3 and 4 of the class comment; returns the rows the merge added. */
    private long commit(Table places, Dataset<Row> geocoded, GeocodePlan plan, Instant now) {
        ensureMainBranch(places);
        String branch = STAGING_BRANCH_PREFIX + now.toEpochMilli();
        places.manageSnapshots().createBranch(branch).commit();
        String view = "geocoded_positions_" + now.toEpochMilli();
        geocoded.createOrReplaceTempView(view);
        try {
            long mainBefore = places.currentSnapshot().snapshotId();
            spark.sql(mergeStatement(PLACES + ".branch_" + branch, view, plan.mode() == GeocodePlan.Mode.FULL));
            places.refresh();
            BranchChanges changes = changes(places, branch, mainBefore);
            Transaction transaction = places.newTransaction();
            ManageSnapshots refs = transaction.manageSnapshots();
            if (changes.any()) {
                refs.fastForwardBranch(SnapshotRef.MAIN_BRANCH, branch);
            }
            // A merge that changed no row may still have committed an empty snapshot: main does not take it.
            refs.removeBranch(branch);
            refs.commit();
            transaction
                    .updateProperties()
                    .set(
                            PROCESSED_SNAPSHOT_PROPERTY,
                            String.valueOf(plan.toInclusive().getAsLong()))
                    .set(GAZETTEER_PROPERTY, geocoder.gazetteer().version())
                    .commit();
            transaction.commitTransaction();
            return changes.addedRecords();
        } catch (RuntimeException e) {
            removeBranchQuietly(places, branch, e);
            throw e;
        } finally {
            spark.catalog().dropTempView(view);
        }
    }

    /** New snapshots without new rows (compactions, deletes, empty commits): only the property moves. */
    private long recordProcessed(Table places, GeocodePlan plan) {
        places.updateProperties()
                .set(
                        PROCESSED_SNAPSHOT_PROPERTY,
                        String.valueOf(plan.toInclusive().getAsLong()))
                .set(GAZETTEER_PROPERTY, geocoder.gazetteer().version())
                .commit();
        return 0;
    }

    /**
     * The merge of the class comment. A full run also deletes the places of positions that no longer exist (deleted
     * by retention, or replaced by an overwrite).
     */
    static String mergeStatement(String target, String source, boolean full) {
        String statement = "MERGE INTO " + target + " t USING " + source + " s"
                + " ON t." + PlaceColumns.VEHICLE_ID + " = s." + PlaceColumns.VEHICLE_ID
                + " AND t." + PlaceColumns.EVENT_TIME + " = s." + PlaceColumns.EVENT_TIME
                + " WHEN MATCHED AND (t." + PlaceColumns.LATITUDE + " <> s." + PlaceColumns.LATITUDE
                + " OR t." + PlaceColumns.LONGITUDE + " <> s." + PlaceColumns.LONGITUDE
                + " OR t." + PlaceColumns.GAZETTEER + " <> s." + PlaceColumns.GAZETTEER + ") THEN UPDATE SET *"
                + " WHEN NOT MATCHED THEN INSERT *";
        return full ? statement + " WHEN NOT MATCHED BY SOURCE THEN DELETE" : statement;
    }

    /** A branch needs a snapshot to start from; a new table has none, so it gets an empty one. */
    private static void ensureMainBranch(Table places) {
        places.refresh();
        if (places.currentSnapshot() == null) {
            places.newFastAppend().commit();
            places.refresh();
        }
    }

    /** Rows and deletes the commits on the branch added since it left main. */
    private static BranchChanges changes(Table places, String branch, long mainBefore) {
        long added = 0;
        long deletes = 0;
        Snapshot snapshot = places.snapshot(branch);
        while (snapshot != null && snapshot.snapshotId() != mainBefore) {
            added += count(snapshot, SnapshotSummary.ADDED_RECORDS_PROP);
            deletes += count(snapshot, SnapshotSummary.ADDED_POS_DELETES_PROP)
                    + count(snapshot, SnapshotSummary.ADDED_EQ_DELETES_PROP)
                    + count(snapshot, SnapshotSummary.DELETED_RECORDS_PROP);
            snapshot = snapshot.parentId() == null ? null : places.snapshot(snapshot.parentId());
        }
        return new BranchChanges(added, deletes);
    }

    private static long count(Snapshot snapshot, String property) {
        String value = snapshot.summary().get(property);
        return value == null ? 0 : Long.parseLong(value);
    }

    private record BranchChanges(long addedRecords, long deletes) {
        boolean any() {
            return addedRecords > 0 || deletes > 0;
        }
    }

    private static void removeStaleBranches(Table places, Instant now) {
        for (Map.Entry<String, SnapshotRef> ref : places.refs().entrySet()) {
            String name = ref.getKey();
            if (ref.getValue().isBranch() && name.startsWith(STAGING_BRANCH_PREFIX)) {
                Optional<Instant> created = branchCreation(name);
                if (created.isEmpty() || created.get().isBefore(now.minus(STALE_BRANCH_AGE))) {
                    places.manageSnapshots().removeBranch(name).commit();
                    LOG.info("Removed the staging branch {} of a run that did not finish", name);
                }
            }
        }
    }

    private static Optional<Instant> branchCreation(String name) {
        try {
            return Optional.of(Instant.ofEpochMilli(Long.parseLong(name.substring(STAGING_BRANCH_PREFIX.length()))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static void removeBranchQuietly(Table places, String branch, RuntimeException failure) {
        try {
            places.refresh();
            if (places.refs().containsKey(branch)) {
                places.manageSnapshots().removeBranch(branch).commit();
            }
        } catch (RuntimeException cleanup) {
            // The next run removes it; the original failure is what the user must see.
            failure.addSuppressed(cleanup);
        }
    }

    private static OptionalLong processedSnapshot(Table places) {
        String value = places.properties().get(PROCESSED_SNAPSHOT_PROPERTY);
        if (value == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(value));
        } catch (NumberFormatException e) {
            throw new IllegalStateException(
                    "Table property " + PROCESSED_SNAPSHOT_PROPERTY + " of "
                            + Tables.qualified(Tables.POSITION_PLACES) + " is '" + value
                            + "', not a snapshot id; remove it"
                            + " (ALTER TABLE ... UNSET TBLPROPERTIES) and run with --full",
                    e);
        }
    }

    private static OptionalLong currentSnapshot(Table table) {
        Snapshot snapshot = table.currentSnapshot();
        return snapshot == null ? OptionalLong.empty() : OptionalLong.of(snapshot.snapshotId());
    }

    private Table table(String name) {
        try {
            Table table = Spark3Util.loadIcebergTable(spark, name);
            table.refresh();
            return table;
        } catch (NoSuchTableException e) {
            throw new IllegalStateException(
                    "Table " + name.substring(LocalSparkSession.CATALOG.length() + 1)
                            + " does not exist: the Iceberg REST catalog creates it at start (catalog.bootstrap-tables);"
                            + " restart the catalog of this release",
                    e);
        } catch (ParseException e) {
            throw new IllegalArgumentException("Invalid table name " + name, e);
        }
    }

    private static Duration elapsedSince(long startedNanos) {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
    }

    private static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f", duration.toMillis() / 1000.0);
    }
}
