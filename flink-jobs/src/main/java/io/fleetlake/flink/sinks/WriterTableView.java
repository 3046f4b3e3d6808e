package io.fleetlake.flink.sinks;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * The table as the pipeline's writers see it: its current metadata with the write properties that decide the cost of
 * each data file set for the pipeline's small, frequent files. The committer works on the table itself (through its
 * table loader); this view is read-only and never committed.
 *
 * <p>Why: a data file is written per partition and writer subtask at every checkpoint, a few thousand rows each, and
 * Parquet sizes buffers by the table's page size ({@value TableProperties#PARQUET_PAGE_SIZE_BYTES}, 1 MiB by default):
 * every column's compressor allocated a 1 MiB buffer per file, a humongous allocation for the G1 collector of a 1 GiB
 * heap, tens of them per checkpoint. Pages of {@value #PAGE_SIZE_BYTES} bytes keep the same files readable by every
 * engine and cost a fraction of that.
 */
final class WriterTableView {
    static final int PAGE_SIZE_BYTES = 64 * 1024;
    static final Map<String, String> WRITE_PROPERTIES =
            Map.of(TableProperties.PARQUET_PAGE_SIZE_BYTES, Integer.toString(PAGE_SIZE_BYTES));

    private WriterTableView() {}

    /** The table with {@link #WRITE_PROPERTIES} over its own properties; the table itself when it has no metadata. */
    static Table of(Table table) {
        requireNonNull(table, "table is null");
        if (!(table instanceof HasTableOperations withOperations)) {
            return table;
        }
        TableOperations operations = withOperations.operations();
        Map<String, String> properties = new HashMap<>(operations.current().properties());
        properties.putAll(WRITE_PROPERTIES);
        TableMetadata metadata = operations.current().replaceProperties(properties);
        return new BaseTable(new ReadOnlyOperations(operations, metadata), table.name());
    }

    /** The table's operations with fixed metadata; refuses to commit. */
    private record ReadOnlyOperations(TableOperations table, TableMetadata metadata) implements TableOperations {
        @Override
        public TableMetadata current() {
            return metadata;
        }

        @Override
        public TableMetadata refresh() {
            return metadata;
        }

        @Override
        public void commit(TableMetadata base, TableMetadata next) {
            throw new UnsupportedOperationException("The writers' view of a table is never committed");
        }

        @Override
        public FileIO io() {
            return table.io();
        }

        @Override
        public String metadataFileLocation(String fileName) {
            return table.metadataFileLocation(fileName);
        }

        @Override
        public LocationProvider locationProvider() {
            return table.locationProvider();
        }
    }
}
