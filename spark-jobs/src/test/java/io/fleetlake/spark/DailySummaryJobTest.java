package io.fleetlake.spark;

import static io.fleetlake.spark.TestSpark.position;
import static io.fleetlake.spark.TestSpark.rejection;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.spark.Spark3Util;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** The job against Iceberg tables in a Hadoop catalog on a local folder: table creation and idempotent reruns. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DailySummaryJobTest {
    private static final LocalDate DAY = LocalDate.parse("2026-11-28");
    private static final LocalDate NEXT_DAY = DAY.plusDays(1);

    private SparkSession spark;

    @BeforeAll
    void startSparkWithFleetTables(@TempDir Path warehouse) throws Exception {
        spark = TestSpark.startWithHadoopCatalog(warehouse);
        spark.sql("CREATE NAMESPACE fleet.fleet");
        spark.sql("CREATE TABLE fleet.fleet.positions (" + TestSpark.POSITIONS.toDDL()
                + ") USING iceberg PARTITIONED BY (days(event_time))");
        spark.sql("CREATE TABLE fleet.fleet.rejected_positions (" + TestSpark.REJECTED_POSITIONS.toDDL()
                + ") USING iceberg PARTITIONED BY (days(rejected_at))");
        TestSpark.positions(
                        spark,
                        List.of(
                                position("bus-1", "2026-11-28T08:00:00Z", 40.0, -3.7, 30, "route-1", "ON_ROUTE"),
                                position("bus-1", "2026-11-28T08:01:00Z", 40.01, -3.7, 30, "route-1", "ON_ROUTE"),
                                position("bus-2", "2026-11-28T09:00:00Z", 41.0, 2.0, 0, null, "NO_ROUTE"),
                                position("bus-2", "2026-11-29T09:00:00Z", 41.0, 2.0, 0, null, "NO_ROUTE")))
                .writeTo("fleet.fleet.positions")
                .append();
        TestSpark.rejections(spark, List.of(rejection("2026-11-28T10:00:00Z", "bus-2")))
                .writeTo("fleet.fleet.rejected_positions")
                .append();
    }

    @AfterAll
    void stopSpark() {
        spark.stop();
    }

    @Test
    void createsTheTableAndReplacesADayOnEveryRun() throws Exception {
        DailySummaryJob job = new DailySummaryJob(spark);

        DailySummaryResult first = job.run(DAY, Instant.parse("2026-11-29T01:00:00Z"));

        Table table = Spark3Util.loadIcebergTable(spark, "fleet.fleet.daily_summary");
        assertThat(table.schema().sameSchema(DailySummaryTable.SCHEMA)).isTrue();
        assertThat(table.spec().fields())
                .singleElement()
                .satisfies(field -> assertThat(field.transform().isIdentity()).isTrue());
        assertThat(TableUtil.formatVersion(table)).isEqualTo(2);
        assertThat(table.sortOrder().fields()).hasSize(1);
        assertThat(first)
                .isEqualTo(
                        new DailySummaryResult(DAY, 2, table.currentSnapshot().snapshotId()));
        List<SummaryRow> firstRows = rows(DAY);
        assertThat(firstRows)
                .extracting(SummaryRow::vehicleId, SummaryRow::positions, SummaryRow::positionsRejected)
                .containsExactly(tuple("bus-1", 2L, 0L), tuple("bus-2", 1L, 1L));

        job.run(NEXT_DAY, Instant.parse("2026-11-30T01:00:00Z"));
        DailySummaryResult rerun = job.run(DAY, Instant.parse("2026-11-29T02:00:00Z"));

        table.refresh();
        Snapshot rerunSnapshot = table.currentSnapshot();
        assertThat(rerun.snapshotId()).isEqualTo(rerunSnapshot.snapshotId()).isNotEqualTo(first.snapshotId());
        assertThat(rerunSnapshot.summary())
                .containsEntry("fleet.daily-summary-day", "2026-11-28")
                .containsEntry("deleted-records", "2")
                .containsEntry("added-records", "2");
        assertThat(rows(DAY))
                .usingRecursiveFieldByFieldElementComparatorIgnoringFields("computedAt")
                .containsExactlyElementsOf(firstRows);
        assertThat(rows(DAY)).extracting(SummaryRow::computedAt).containsOnly(Instant.parse("2026-11-29T02:00:00Z"));
        assertThat(rows(NEXT_DAY)).extracting(SummaryRow::vehicleId).containsExactly("bus-2");
    }

    @Test
    void aRerunOfADayThatLostItsDataLeavesItEmpty() throws Exception {
        DailySummaryJob job = new DailySummaryJob(spark);
        LocalDate day = LocalDate.parse("2026-12-05");
        TestSpark.positions(spark, List.of(position("bus-7", "2026-12-05T08:00:00Z", 40.0, -3.7, 30, null, "NO_ROUTE")))
                .writeTo("fleet.fleet.positions")
                .append();
        assertThat(job.run(day, Instant.parse("2026-12-06T01:00:00Z")).vehicles())
                .isEqualTo(1);

        spark.sql("DELETE FROM fleet.fleet.positions WHERE event_time >= TIMESTAMP '2026-12-05 00:00:00'");
        DailySummaryResult rerun = job.run(day, Instant.parse("2026-12-06T02:00:00Z"));

        assertThat(rerun.vehicles()).isZero();
        assertThat(rows(day)).isEmpty();
    }

    private List<SummaryRow> rows(LocalDate day) {
        return spark
                .table("fleet.fleet.daily_summary")
                .where("day = DATE '" + day + "'")
                .orderBy(DailySummaryTable.VEHICLE_ID)
                .collectAsList()
                .stream()
                .map(SummaryRow::of)
                .toList();
    }
}
