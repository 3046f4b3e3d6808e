package io.fleetlake.bench.phase;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.EnrichmentColumns;
import io.fleetlake.model.LineageColumns;
import io.fleetlake.model.codec.PositionField;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntConsumer;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * A day of the pipeline's commits to a positions table, written quickly with the Iceberg Java API: {@code commits}
 * appends spread over the day, each holding every fix the fleet reported in its slice of the day (each vehicle every
 * {@code fixInterval}, staggered), one Parquet file per partition touched (day x bucket(16, vehicle_id)), as the
 * pipeline's single writer does at each checkpoint. At 8,640 commits this is a day of 10 s checkpoints; fewer commits
 * are the same day with longer checkpoints (same rows, fewer and larger files).
 *
 * <p>Rows are deterministic: vehicle {@code v} drives a slow loop around its own point in Spain at a speed that varies
 * with the time of day, with the enrichment columns filled as the pipeline fills them.
 */
final class SimulatedDayHistory {
    private final int vehicles;
    private final Duration fixInterval;
    private final int commits;

    SimulatedDayHistory(int vehicles, Duration fixInterval, int commits) {
        this.vehicles = vehicles;
        this.fixInterval = requireNonNull(fixInterval, "fixInterval is null");
        this.commits = commits;
        if (vehicles < 1 || commits < 1 || fixInterval.toMillis() < 1) {
            throw new IllegalArgumentException(
                    "vehicles and commits must be positive, got " + vehicles + " and " + commits);
        }
    }

    static String vehicleId(int vehicle) {
        return String.format("BV-%04d", vehicle);
    }

    /** Fixes of one vehicle over the day. */
    long fixesPerVehicle() {
        return Duration.ofDays(1).toMillis() / fixInterval.toMillis();
    }

    /**
     * Writes and commits the day into {@code table}, which must have the schema and partitioning of
     * {@code fleet.positions}.
     *
     * @param committed told the number of commits made after each commit
     */
    void write(Table table, Instant day, IntConsumer committed) {
        Schema schema = table.schema();
        InternalRecordWrapper wrapper = new InternalRecordWrapper(schema.asStruct());
        GenericAppenderFactory appenders = new GenericAppenderFactory(schema, table.spec());
        long sliceMillis = Duration.ofDays(1).toMillis() / commits;
        long fixMillis = fixInterval.toMillis();
        long offset = 0;
        for (int commit = 0; commit < commits; commit++) {
            long sliceStart = commit * sliceMillis;
            long sliceEnd = commit == commits - 1 ? Duration.ofDays(1).toMillis() : sliceStart + sliceMillis;
            OutputFileFactory files = OutputFileFactory.builderFor(table, commit, 0)
                    .format(FileFormat.PARQUET)
                    .build();
            Map<PartitionKey, DataWriter<Record>> writers = new LinkedHashMap<>();
            try {
                for (long round = sliceStart / fixMillis * fixMillis; round < sliceEnd; round += fixMillis) {
                    for (int vehicle = 0; vehicle < vehicles; vehicle++) {
                        long at = round + vehicle * fixMillis / vehicles;
                        if (at < sliceStart || at >= sliceEnd) {
                            continue;
                        }
                        Record row = row(schema, vehicle, day.plusMillis(at), offset++);
                        PartitionKey key = new PartitionKey(table.spec(), schema);
                        key.partition(wrapper.wrap(row));
                        DataWriter<Record> writer = writers.get(key);
                        if (writer == null) {
                            writer = appenders.newDataWriter(
                                    files.newOutputFile(table.spec(), key), FileFormat.PARQUET, key);
                            writers.put(key.copy(), writer);
                        }
                        writer.write(row);
                    }
                }
                AppendFiles append = table.newAppend();
                for (DataWriter<Record> writer : writers.values()) {
                    writer.close();
                    append.appendFile(writer.toDataFile());
                }
                append.commit();
            } catch (IOException e) {
                throw new UncheckedIOException("Writing commit " + commit + " of the simulated day failed", e);
            }
            committed.accept(commit + 1);
        }
    }

    private static Record row(Schema schema, int vehicle, Instant at, long offset) {
        double hours = at.getEpochSecond() % 86_400 / 3_600.0;
        double angle = (at.getEpochSecond() % 86_400) / 900.0 + vehicle;
        double speed = Math.max(0, 45 + 35 * Math.sin(hours / 24 * 2 * Math.PI + vehicle));
        Record row = GenericRecord.create(schema);
        OffsetDateTime eventTime = OffsetDateTime.ofInstant(at, ZoneOffset.UTC);
        row.setField(PositionField.VEHICLE_ID.fieldName(), vehicleId(vehicle));
        row.setField(PositionField.EVENT_TIME.fieldName(), eventTime);
        row.setField(PositionField.LATITUDE.fieldName(), 37.0 + (vehicle % 40) * 0.15 + 0.02 * Math.sin(angle));
        row.setField(PositionField.LONGITUDE.fieldName(), -6.0 + (vehicle / 40) * 0.4 + 0.02 * Math.cos(angle));
        row.setField(PositionField.SPEED_KMH.fieldName(), speed);
        row.setField(PositionField.HEADING_DEG.fieldName(), (angle * 57.29577951308232) % 360);
        row.setField(PositionField.ALTITUDE_M.fieldName(), 650.0 + vehicle % 100);
        row.setField(PositionField.ACCURACY_M.fieldName(), 3.5);
        row.setField(PositionField.SATELLITES.fieldName(), 9);
        row.setField(LineageColumns.SOURCE_PARTITION, vehicle % 2);
        row.setField(LineageColumns.SOURCE_OFFSET, offset);
        row.setField(LineageColumns.INGEST_TIME, eventTime.plusNanos(350_000_000L));
        row.setField(PositionField.BATTERY_LEVEL.fieldName(), vehicle % 3 == 0 ? null : 80.0 - hours);
        row.setField(EnrichmentColumns.ROUTE_ID, "R-" + vehicle % 50);
        row.setField(EnrichmentColumns.NEXT_STOP_ID, "S-" + (vehicle % 50) + "-" + (int) hours);
        row.setField(EnrichmentColumns.DISTANCE_TO_NEXT_STOP_M, 1_000 + 900 * Math.cos(angle));
        row.setField(EnrichmentColumns.DISTANCE_TO_NEXT_STOP_METHOD, "ALONG_ROUTE");
        row.setField(EnrichmentColumns.DISTANCE_FROM_ROUTE_M, 12.0);
        row.setField(EnrichmentColumns.STATUS, speed < 3 ? "STOPPED" : "ON_ROUTE");
        row.setField(EnrichmentColumns.ENRICHMENT_STALE, false);
        return row;
    }
}
