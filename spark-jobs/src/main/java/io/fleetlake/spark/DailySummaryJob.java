package io.fleetlake.spark;

import static java.util.Objects.requireNonNull;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import io.fleetlake.model.Tables;
import java.time.Instant;
import java.time.LocalDate;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.spark.Spark3Util;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.parser.ParseException;

/**
 * Computes one day of {@code fleet.daily_summary} from {@code fleet.positions} and {@code fleet.rejected_positions}
 * and replaces that day's rows, in the Spark catalog {@value LocalSparkSession#CATALOG}.
 *
 * <p>Idempotent: the write is an Iceberg overwrite by the filter {@code day = D}, one commit that deletes the day's
 * partition and adds the new rows, so a rerun replaces the day (also with no rows when the day has no data anymore) and
 * readers see either the old or the new day, never a mix. Each such snapshot carries the summary property
 * {@value #DAY_SNAPSHOT_PROPERTY} = the day.
 */
public final class DailySummaryJob {
    /** Snapshot summary property naming the day a commit replaced. */
    public static final String DAY_SNAPSHOT_PROPERTY = "fleet.daily-summary-day";

    /** The Spark name of {@code fleet.daily_summary}. */
    public static final String SUMMARY_TABLE = sparkName(DailySummaryTable.NAME);

    private final SparkSession spark;

    /** @param spark a session with the fleet's Iceberg catalog, see {@link LocalSparkSession} */
    public DailySummaryJob(SparkSession spark) {
        this.spark = requireNonNull(spark, "spark is null");
    }

    /**
     * Creates {@code fleet.daily_summary} when it does not exist, computes the day and replaces its rows.
     *
     * @param computedAt the value of {@code computed_at}
     */
    public DailySummaryResult run(LocalDate day, Instant computedAt) {
        requireNonNull(day, "day is null");
        requireNonNull(computedAt, "computedAt is null");
        DailySummaryTable.ensure(Spark3Util.loadIcebergCatalog(spark, LocalSparkSession.CATALOG));

        Dataset<Row> summary = DailySummary.compute(
                        spark.table(sparkName(Tables.POSITIONS)),
                        spark.table(sparkName(Tables.REJECTED_POSITIONS)),
                        day,
                        computedAt)
                .persist();
        try {
            long vehicles = summary.count();
            replaceDay(summary, day);
            return new DailySummaryResult(day, vehicles, committedSnapshot(day).snapshotId());
        } finally {
            summary.unpersist();
        }
    }

    private static void replaceDay(Dataset<Row> summary, LocalDate day) {
        try {
            summary.writeTo(SUMMARY_TABLE)
                    .option("snapshot-property." + DAY_SNAPSHOT_PROPERTY, day.toString())
                    .overwrite(col(DailySummaryTable.DAY).equalTo(lit(day)));
        } catch (NoSuchTableException e) {
            throw new IllegalStateException(SUMMARY_TABLE + " disappeared after it was created; was it dropped?", e);
        }
    }

    private Snapshot committedSnapshot(LocalDate day) {
        Table table = loadSummaryTable();
        table.refresh();
        Snapshot snapshot = table.currentSnapshot();
        if (snapshot == null || !day.toString().equals(snapshot.summary().get(DAY_SNAPSHOT_PROPERTY))) {
            throw new IllegalStateException("The current snapshot of " + SUMMARY_TABLE + " is not the overwrite of "
                    + day + " just committed; is another job writing the table at the same time?");
        }
        return snapshot;
    }

    private Table loadSummaryTable() {
        try {
            return Spark3Util.loadIcebergTable(spark, SUMMARY_TABLE);
        } catch (ParseException | NoSuchTableException e) {
            throw new IllegalStateException("Cannot load " + SUMMARY_TABLE + " after writing it", e);
        }
    }

    /** Catalog, namespace and table: see {@link LocalSparkSession} for why three parts. */
    static String sparkName(String table) {
        return LocalSparkSession.CATALOG + "." + Tables.qualified(table);
    }
}
