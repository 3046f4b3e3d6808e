package io.fleetlake.maintenance;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.VehicleMinuteColumns;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * A stand-in for the pipeline's two Iceberg sinks, committing in a loop as the pipeline does at every checkpoint: an
 * append of a few positions (one small file per partition touched) to {@code fleet.positions}, and an upsert of a few
 * vehicle minutes (equality delete of the keys + the new rows, one row delta) to {@code fleet.vehicle_minutes}. Each
 * commit goes through Iceberg's own commit retries, exactly as the pipeline's; a commit that still fails is recorded
 * and the loop stops.
 */
final class StreamingWriter implements Runnable {
    static final int VEHICLES = 8;
    static final int MINUTE_KEYS = 6;

    private final Catalog catalog;
    private final TableIdentifier positions;
    private final TableIdentifier minutes;
    private final Instant day;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicInteger commits = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** (vehicle_id, window_start minute) -> positions column of its last upsert. */
    private final Map<String, Integer> lastUpsert = new HashMap<>();

    private long rowsAppended;

    StreamingWriter(Catalog catalog, TableIdentifier positions, TableIdentifier minutes, Instant day) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.positions = requireNonNull(positions, "positions is null");
        this.minutes = requireNonNull(minutes, "minutes is null");
        this.day = requireNonNull(day, "day is null");
    }

    @Override
    public void run() {
        try {
            while (running.get()) {
                commitOnce();
            }
        } catch (Throwable e) {
            failure.set(e);
        }
    }

    /** One checkpoint's commits: an append to positions, an upsert to vehicle minutes. */
    void commitOnce() {
        int commit = commits.get();
        appendPositions(commit);
        upsertMinutes(commit);
        commits.incrementAndGet();
    }

    void stop() {
        running.set(false);
    }

    int commits() {
        return commits.get();
    }

    Throwable failure() {
        return failure.get();
    }

    synchronized long rowsAppended() {
        return rowsAppended;
    }

    synchronized Map<String, Integer> lastUpserts() {
        return Map.copyOf(lastUpsert);
    }

    private void appendPositions(int commit) {
        Table table = catalog.loadTable(positions);
        Schema schema = table.schema();
        Map<PartitionKey, List<Record>> byPartition = new HashMap<>();
        InternalRecordWrapper wrapper = new InternalRecordWrapper(schema.asStruct());
        for (int vehicle = 0; vehicle < VEHICLES; vehicle++) {
            Record row = GenericRecord.create(schema);
            Instant eventTime = day.plusSeconds(commit * 10L + vehicle);
            row.setField("vehicle_id", "MT-" + vehicle);
            row.setField("event_time", OffsetDateTime.ofInstant(eventTime, ZoneOffset.UTC));
            row.setField("latitude", 40.4 + vehicle * 0.01);
            row.setField("longitude", -3.7);
            row.setField("speed_kmh", 30.0);
            row.setField("heading_deg", 90.0);
            row.setField("source_partition", 0);
            row.setField("source_offset", (long) commit * VEHICLES + vehicle);
            row.setField("ingest_time", OffsetDateTime.ofInstant(eventTime, ZoneOffset.UTC));
            PartitionKey key = new PartitionKey(table.spec(), schema);
            key.partition(wrapper.wrap(row));
            byPartition.computeIfAbsent(key, ignored -> new ArrayList<>()).add(row);
        }
        OutputFileFactory files = OutputFileFactory.builderFor(table, commit, 0)
                .format(FileFormat.PARQUET)
                .build();
        GenericAppenderFactory appenders = new GenericAppenderFactory(schema, table.spec());
        AppendFiles append = table.newAppend();
        byPartition.forEach((partition, rows) -> append.appendFile(write(appenders, files, table, partition, rows)));
        append.commit();
        synchronized (this) {
            rowsAppended += VEHICLES;
        }
    }

    private void upsertMinutes(int commit) {
        Table table = catalog.loadTable(minutes);
        Schema schema = table.schema();
        Schema keySchema = schema.select(VehicleMinuteColumns.VEHICLE_ID, VehicleMinuteColumns.WINDOW_START);
        List<Integer> keyIds = List.copyOf(schema.identifierFieldIds());
        GenericAppenderFactory appenders = new GenericAppenderFactory(
                schema,
                table.spec(),
                keyIds.stream().mapToInt(Integer::intValue).toArray(),
                keySchema,
                null);
        OutputFileFactory files = OutputFileFactory.builderFor(table, commit, 1)
                .format(FileFormat.PARQUET)
                .build();
        List<Record> rows = new ArrayList<>();
        Map<String, Integer> upserted = new HashMap<>();
        for (int key = commit % 2; key < MINUTE_KEYS; key += 2) {
            String vehicle = "MT-" + key % 3;
            Instant windowStart = day.plusSeconds(60L * (key / 3));
            Record row = GenericRecord.create(schema);
            row.setField(VehicleMinuteColumns.VEHICLE_ID, vehicle);
            row.setField(VehicleMinuteColumns.WINDOW_START, OffsetDateTime.ofInstant(windowStart, ZoneOffset.UTC));
            row.setField(
                    VehicleMinuteColumns.WINDOW_END,
                    OffsetDateTime.ofInstant(windowStart.plusSeconds(60), ZoneOffset.UTC));
            row.setField(VehicleMinuteColumns.POSITIONS, commit);
            row.setField(VehicleMinuteColumns.DISTANCE_M, 100.0);
            row.setField(VehicleMinuteColumns.AVG_SPEED_KMH, 30.0);
            row.setField(VehicleMinuteColumns.MAX_SPEED_KMH, 40.0);
            row.setField(VehicleMinuteColumns.SECONDS_STOPPED, 0.0);
            row.setField(VehicleMinuteColumns.COMPUTED_AT, OffsetDateTime.now(ZoneOffset.UTC));
            rows.add(row);
            upserted.put(vehicle + "@" + windowStart, commit);
        }
        // Every key of one day: one partition.
        PartitionKey partition = new PartitionKey(table.spec(), schema);
        partition.partition(new InternalRecordWrapper(schema.asStruct()).wrap(rows.get(0)));
        Record keyTemplate = GenericRecord.create(keySchema);
        List<Record> keys = rows.stream()
                .map(row -> keyTemplate.copy(Map.of(
                        VehicleMinuteColumns.VEHICLE_ID, row.getField(VehicleMinuteColumns.VEHICLE_ID),
                        VehicleMinuteColumns.WINDOW_START, row.getField(VehicleMinuteColumns.WINDOW_START))))
                .toList();
        DeleteFile deletes = writeDeletes(appenders, files, table, partition, keys);
        DataFile data = write(appenders, files, table, partition, rows);
        RowDelta delta = table.newRowDelta().addDeletes(deletes).addRows(data);
        delta.commit();
        synchronized (this) {
            lastUpsert.putAll(upserted);
        }
    }

    private static DataFile write(
            GenericAppenderFactory appenders,
            OutputFileFactory files,
            Table table,
            PartitionKey partition,
            List<Record> rows) {
        EncryptedOutputFile file = files.newOutputFile(table.spec(), partition);
        DataWriter<Record> writer = appenders.newDataWriter(file, FileFormat.PARQUET, partition);
        try (writer) {
            rows.forEach(writer::write);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.toDataFile();
    }

    private static DeleteFile writeDeletes(
            GenericAppenderFactory appenders,
            OutputFileFactory files,
            Table table,
            PartitionKey partition,
            List<Record> keys) {
        EncryptedOutputFile file = files.newOutputFile(table.spec(), partition);
        EqualityDeleteWriter<Record> writer = appenders.newEqDeleteWriter(file, FileFormat.PARQUET, partition);
        try (writer) {
            keys.forEach(writer::write);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.toDeleteFile();
    }
}
