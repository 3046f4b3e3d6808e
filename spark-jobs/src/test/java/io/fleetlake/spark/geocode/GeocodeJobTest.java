package io.fleetlake.spark.geocode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.geocoding.ReverseGeocoder;
import io.fleetlake.spark.LocalSparkSession;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Table;
import org.apache.iceberg.spark.Spark3Util;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job against Iceberg tables in a Hadoop catalog on a local folder, one history built step by step: the first run
 * reads everything, later runs only the new appends, reruns write nothing, a compaction adds nothing to read, a run that
 * fails mid-way leaves the places and the recorded snapshot as they were, and an overwrite or expired history makes the
 * next run a full one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GeocodeJobTest {
    private static final StructType POSITIONS = new StructType()
            .add("vehicle_id", DataTypes.StringType, false)
            .add("event_time", DataTypes.TimestampType, false)
            .add("latitude", DataTypes.DoubleType, false)
            .add("longitude", DataTypes.DoubleType, false)
            .add("speed_kmh", DataTypes.DoubleType, false);
    private static final String PLACES_DDL = "vehicle_id STRING NOT NULL, event_time TIMESTAMP NOT NULL,"
            + " latitude DOUBLE NOT NULL, longitude DOUBLE NOT NULL, place_name STRING, municipality STRING,"
            + " province STRING, region STRING, country_code STRING, country STRING, distance_km DOUBLE,"
            + " gazetteer STRING NOT NULL, geocoded_at TIMESTAMP NOT NULL";
    private static final Instant NOW = Instant.parse("2026-11-29T06:00:00Z");

    private SparkSession spark;
    private GeocodeJob job;

    @BeforeAll
    void startSparkWithFleetTables(@TempDir Path warehouse) {
        Map<String, String> settings = new LinkedHashMap<>(LocalSparkSession.sessionSettings("local[2]"));
        settings.put("spark.sql.extensions", "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions");
        settings.put("spark.sql.catalog.fleet", "org.apache.iceberg.spark.SparkCatalog");
        settings.put("spark.sql.catalog.fleet.type", "hadoop");
        settings.put("spark.sql.catalog.fleet.warehouse", warehouse.toUri().toString());
        settings.put("spark.sql.catalog.fleet.cache-enabled", "false");
        settings.put(
                "spark.sql.warehouse.dir",
                warehouse.resolve("spark-warehouse").toUri().toString());
        spark = LocalSparkSession.start(settings);
        spark.sql("CREATE NAMESPACE fleet.fleet");
        spark.sql("CREATE TABLE fleet.fleet.positions (" + POSITIONS.toDDL()
                + ") USING iceberg PARTITIONED BY (days(event_time)) TBLPROPERTIES ('format-version'='2')");
        spark.sql("CREATE TABLE fleet.fleet.position_places (" + PLACES_DDL
                + ") USING iceberg PARTITIONED BY (days(event_time)) TBLPROPERTIES ('format-version'='2',"
                + " 'write.merge.mode'='merge-on-read', 'write.update.mode'='merge-on-read',"
                + " 'write.delete.mode'='merge-on-read')");
        job = new GeocodeJob(spark, ReverseGeocoder.bundled(30), Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @AfterAll
    void stopSpark() {
        spark.stop();
    }

    @Test
    @Order(1)
    void firstRunReadsEverythingAndNamesEachPosition() {
        append(
                position("bus-1", "2026-11-28T08:00:00Z", 40.4169, -3.7035), // Madrid
                position("bus-1", "2026-11-28T08:00:05Z", 38.7075, -9.1364), // Lisbon
                position("bus-2", "2026-11-28T09:00:00Z", 35.8890, -5.3198), // Ceuta
                position("bus-3", "2026-11-28T10:00:00Z", 38.5, -13.0)); // the Atlantic
        long positionsSnapshot = positions().currentSnapshot().snapshotId();

        GeocodeResult result = job.run(false, Optional.empty());

        assertThat(result.plan().mode()).isEqualTo(GeocodePlan.Mode.FULL);
        assertThat(result.positionsRead()).isEqualTo(4);
        assertThat(result.positionsNamed()).isEqualTo(3);
        assertThat(result.rowsWritten()).isEqualTo(4);
        assertThat(places())
                .containsExactly(
                        "bus-1|2026-11-28T08:00:00Z|Sol|Madrid|Madrid|ES",
                        "bus-1|2026-11-28T08:00:05Z|Baixa|Lisbon|Lisbon|PT",
                        "bus-2|2026-11-28T09:00:00Z|Ceuta|Ceuta|Ceuta|ES",
                        "bus-3|2026-11-28T10:00:00Z|null|null|null|null");
        Table places = placesTable();
        assertThat(places.properties())
                .containsEntry(GeocodeJob.PROCESSED_SNAPSHOT_PROPERTY, String.valueOf(positionsSnapshot))
                .containsEntry(
                        GeocodeJob.GAZETTEER_PROPERTY,
                        ReverseGeocoder.bundled(30).gazetteer().version());
        assertThat(places.refs()).containsOnlyKeys("main");
        assertThat(result.placesSnapshot()).hasValue(places.currentSnapshot().snapshotId());
    }

    @Test
    @Order(2)
    void aRerunOverTheSameSnapshotsWritesNothing() {
        long placesSnapshot = placesTable().currentSnapshot().snapshotId();
        int snapshots = snapshotCount(placesTable());

        GeocodeResult rerun = job.run(false, Optional.empty());

        assertThat(rerun.plan().mode()).isEqualTo(GeocodePlan.Mode.UP_TO_DATE);
        assertThat(rerun.positionsRead()).isZero();
        assertThat(rerun.rowsWritten()).isZero();
        assertThat(placesTable().currentSnapshot().snapshotId()).isEqualTo(placesSnapshot);
        assertThat(snapshotCount(placesTable())).isEqualTo(snapshots);
    }

    @Test
    @Order(3)
    void laterRunsReadOnlyTheNewAppends() {
        append(position("bus-4", "2026-11-28T11:00:00Z", 39.5676, 2.6485)); // Palma
        append(position("bus-4", "2026-11-28T11:00:05Z", 28.1006, -15.4152)); // Las Palmas

        GeocodeResult result = job.run(false, Optional.empty());

        assertThat(result.plan().mode()).isEqualTo(GeocodePlan.Mode.INCREMENTAL);
        assertThat(result.plan().newSnapshots()).isEqualTo(2);
        assertThat(result.plan().appendSnapshots()).isEqualTo(2);
        assertThat(result.positionsRead())
                .as("only the two new positions are read")
                .isEqualTo(2);
        assertThat(result.rowsWritten()).isEqualTo(2);
        assertThat(places())
                .hasSize(6)
                .contains(
                        "bus-4|2026-11-28T11:00:00Z|Palma|Illes Balears|Balearic Islands|ES",
                        "bus-4|2026-11-28T11:00:05Z|Las Palmas de Gran Canaria|Las Palmas|Canary Islands|ES");

        // --since rereads older snapshots too; the rows are already there, so nothing is written.
        GeocodeResult since = job.run(false, Optional.of(Instant.EPOCH.plusSeconds(1)));
        assertThat(since.plan().mode()).isEqualTo(GeocodePlan.Mode.FULL);
        assertThat(since.positionsRead()).isEqualTo(6);
        assertThat(since.rowsWritten()).isZero();
        assertThat(places()).hasSize(6);
    }

    @Test
    @Order(4)
    void aCompactionAddsNothingToRead() {
        spark.sql(
                "CALL fleet.system.rewrite_data_files(table => 'fleet.fleet.positions', options => map('min-input-files',"
                        + " '2'))");
        assertThat(positions().currentSnapshot().operation()).isEqualTo("replace");

        GeocodeResult result = job.run(false, Optional.empty());

        assertThat(result.plan().mode()).isEqualTo(GeocodePlan.Mode.INCREMENTAL);
        assertThat(result.plan().appendSnapshots()).isZero();
        assertThat(result.positionsRead()).isZero();
        assertThat(placesTable().properties())
                .containsEntry(
                        GeocodeJob.PROCESSED_SNAPSHOT_PROPERTY,
                        String.valueOf(positions().currentSnapshot().snapshotId()));
        assertThat(places()).hasSize(6);
    }

    @Test
    @Order(5)
    void aRunThatFailsMidwayChangesNothingAndTheNextRunRecovers() {
        Table before = placesTable();
        long placesSnapshot = before.currentSnapshot().snapshotId();
        String processed = before.properties().get(GeocodeJob.PROCESSED_SNAPSHOT_PROPERTY);
        append(
                position("bus-5", "2026-11-28T12:00:00Z", 37.3858, -5.9931), // Seville
                position("bus-5", "2026-11-28T12:00:05Z", 95.0, -5.9931)); // not on Earth: geocoding fails

        assertThatThrownBy(() -> job.run(false, Optional.empty())).hasStackTraceContaining("Invalid coordinates 95.0");

        Table after = placesTable();
        assertThat(after.currentSnapshot().snapshotId()).isEqualTo(placesSnapshot);
        assertThat(after.properties()).containsEntry(GeocodeJob.PROCESSED_SNAPSHOT_PROPERTY, processed);
        assertThat(after.refs()).as("the staging branch is removed").containsOnlyKeys("main");
        assertThat(places()).hasSize(6);

        // Deleting the bad row rewrites its file: an overwrite that adds rows, which an incremental read cannot see.
        spark.sql("DELETE FROM fleet.fleet.positions WHERE latitude > 90");
        GeocodeResult recovered = job.run(false, Optional.empty());

        assertThat(recovered.plan().mode()).isEqualTo(GeocodePlan.Mode.FULL);
        assertThat(recovered.plan().reason()).contains("overwrote rows");
        assertThat(recovered.rowsWritten()).as("only Seville is new").isEqualTo(1);
        assertThat(places()).hasSize(7).contains("bus-5|2026-11-28T12:00:00Z|Sevilla|Sevilla|Andalusia|ES");
    }

    @Test
    @Order(6)
    void anExpiredProcessedSnapshotMakesTheNextRunFull() {
        append(position("bus-6", "2026-11-28T13:00:00Z", 35.2923, -2.9381)); // Melilla
        Table positions = positions();
        positions
                .expireSnapshots()
                .expireOlderThan(positions.currentSnapshot().timestampMillis() + 1)
                .retainLast(1)
                .commit();

        GeocodeResult result = job.run(false, Optional.empty());

        assertThat(result.plan().mode()).isEqualTo(GeocodePlan.Mode.FULL);
        assertThat(result.plan().reason()).contains("no longer in the history");
        assertThat(result.rowsWritten()).isEqualTo(1);
        assertThat(places()).hasSize(8).contains("bus-6|2026-11-28T13:00:00Z|Melilla|Melilla|Melilla|ES");
        assertThat(spark.sql("SELECT vehicle_id, event_time FROM fleet.fleet.position_places GROUP BY 1, 2"
                                + " HAVING count(*) > 1")
                        .count())
                .as("keys stored twice")
                .isZero();
    }

    @Test
    @Order(7)
    void theMergeRewritesOnlyChangedRowsAndAFullRunDropsPlacesOfDeletedPositions() {
        assertThat(GeocodeJob.mergeStatement("t1", "s1", false))
                .contains("WHEN MATCHED AND (t.latitude <> s.latitude OR t.longitude <> s.longitude OR t.gazetteer"
                        + " <> s.gazetteer) THEN UPDATE SET *")
                .contains("WHEN NOT MATCHED THEN INSERT *")
                .doesNotContain("NOT MATCHED BY SOURCE");
        assertThat(GeocodeJob.mergeStatement("t1", "s1", true)).endsWith("WHEN NOT MATCHED BY SOURCE THEN DELETE");

        spark.sql("DELETE FROM fleet.fleet.positions WHERE vehicle_id = 'bus-3'");
        GeocodeResult result = job.run(true, Optional.empty());

        assertThat(result.plan().mode()).isEqualTo(GeocodePlan.Mode.FULL);
        assertThat(places()).hasSize(7).noneMatch(row -> row.startsWith("bus-3|"));
    }

    private void append(Row... rows) {
        try {
            spark.createDataFrame(List.of(rows), POSITIONS)
                    .writeTo("fleet.fleet.positions")
                    .append();
        } catch (NoSuchTableException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Row position(String vehicleId, String eventTime, double latitude, double longitude) {
        return RowFactory.create(
                vehicleId, java.sql.Timestamp.from(Instant.parse(eventTime)), latitude, longitude, 30.0);
    }

    private List<String> places() {
        List<String> rows = new ArrayList<>();
        for (Row row : spark.sql("SELECT vehicle_id, event_time, place_name, province, region, country_code"
                        + " FROM fleet.fleet.position_places ORDER BY vehicle_id, event_time")
                .collectAsList()) {
            rows.add(row.getString(0) + "|" + row.getTimestamp(1).toInstant() + "|" + row.getString(2) + "|"
                    + row.getString(3) + "|" + row.getString(4) + "|" + row.getString(5));
        }
        return rows;
    }

    private Table positions() {
        return load("fleet.fleet.positions");
    }

    private Table placesTable() {
        return load("fleet.fleet.position_places");
    }

    private Table load(String name) {
        try {
            Table table = Spark3Util.loadIcebergTable(spark, name);
            table.refresh();
            return table;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static int snapshotCount(Table table) {
        int count = 0;
        for (var ignored : table.snapshots()) {
            count++;
        }
        return count;
    }
}
