package io.fleetlake.bench.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class TwinTableTest {
    @Test
    void twinGetsEveryWriteSettingOfPositionsAndItsFormatVersion() throws IOException {
        try (InMemoryCatalog catalog = new InMemoryCatalog()) {
            catalog.initialize("test", Map.of());
            catalog.createNamespace(Namespace.of("fleet"));
            Table positions = catalog.buildTable(
                            TableIdentifier.of("fleet", "positions"),
                            new Schema(Types.NestedField.required(1, "vehicle_id", Types.StringType.get())))
                    .withProperties(Map.of(
                            TableProperties.FORMAT_VERSION,
                            "2",
                            TableProperties.PARQUET_COMPRESSION,
                            "zstd",
                            TableProperties.PARQUET_COMPRESSION_LEVEL,
                            "1",
                            TableProperties.PARQUET_PAGE_SIZE_BYTES,
                            "65536",
                            "parquet.enable.dictionary",
                            "false"))
                    .create();

            assertThat(TwinTable.sameProperties(positions))
                    .containsEntry(TableProperties.FORMAT_VERSION, "2")
                    .containsEntry(TableProperties.PARQUET_COMPRESSION, "zstd")
                    .containsEntry(TableProperties.PARQUET_COMPRESSION_LEVEL, "1")
                    .containsEntry(TableProperties.PARQUET_PAGE_SIZE_BYTES, "65536")
                    .containsEntry("parquet.enable.dictionary", "false");
        }
    }
}
