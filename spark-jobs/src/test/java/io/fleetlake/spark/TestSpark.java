package io.fleetlake.spark;

import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * A local session like the job's, with a Hadoop catalog on a local folder in place of the REST catalog and S3, and
 * in-memory rows shaped like the fleet's tables.
 */
final class TestSpark {
    /** The columns of fleet.positions the summary reads, plus one it does not. */
    static final StructType POSITIONS = new StructType()
            .add("vehicle_id", DataTypes.StringType, false)
            .add("event_time", DataTypes.TimestampType, false)
            .add("latitude", DataTypes.DoubleType, false)
            .add("longitude", DataTypes.DoubleType, false)
            .add("speed_kmh", DataTypes.DoubleType, false)
            .add("source_offset", DataTypes.LongType, false)
            .add("route_id", DataTypes.StringType, true)
            .add("status", DataTypes.StringType, true);

    /** The columns of fleet.rejected_positions the summary reads, plus one it does not. */
    static final StructType REJECTED_POSITIONS = new StructType()
            .add("rejected_at", DataTypes.TimestampType, false)
            .add("reason", DataTypes.StringType, false)
            .add("vehicle_id", DataTypes.StringType, true);

    private TestSpark() {}

    static SparkSession startWithHadoopCatalog(Path warehouse) {
        Map<String, String> settings = new LinkedHashMap<>(LocalSparkSession.sessionSettings("local[2]"));
        settings.put("spark.sql.catalog.fleet", "org.apache.iceberg.spark.SparkCatalog");
        settings.put("spark.sql.catalog.fleet.type", "hadoop");
        settings.put("spark.sql.catalog.fleet.warehouse", warehouse.toUri().toString());
        settings.put(
                "spark.sql.warehouse.dir",
                warehouse.resolve("spark-warehouse").toUri().toString());
        return LocalSparkSession.start(settings);
    }

    static Row position(
            String vehicleId,
            String eventTime,
            double latitude,
            double longitude,
            double speedKmh,
            String routeId,
            String status) {
        return RowFactory.create(
                vehicleId, Instant.parse(eventTime), latitude, longitude, speedKmh, 0L, routeId, status);
    }

    static Row rejection(String rejectedAt, String vehicleId) {
        return RowFactory.create(Instant.parse(rejectedAt), "OUTSIDE_REGION", vehicleId);
    }

    static Dataset<Row> positions(SparkSession spark, List<Row> rows) {
        return spark.createDataFrame(rows, POSITIONS);
    }

    static Dataset<Row> rejections(SparkSession spark, List<Row> rows) {
        return spark.createDataFrame(rows, REJECTED_POSITIONS);
    }
}
