package io.fleetlake.flink.sinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriterTableViewTest {
    @TempDir
    Path warehouse;

    @Test
    void writersSeeSmallPagesAndTheTableKeepsItsOwnPropertiesAndCommits() throws Exception {
        try (HadoopCatalog catalog =
                new HadoopCatalog(new Configuration(), warehouse.toUri().toString())) {
            catalog.createNamespace(Namespace.of("fleet"));
            Table table = catalog.createTable(
                    TableIdentifier.of("fleet", "positions"),
                    new Schema(Types.NestedField.required(1, "vehicle_id", Types.StringType.get())),
                    PartitionSpec.unpartitioned(),
                    Map.of(TableProperties.PARQUET_COMPRESSION, "zstd"));

            Table view = WriterTableView.of(table);

            assertThat(view.properties())
                    .containsEntry(TableProperties.PARQUET_PAGE_SIZE_BYTES, "65536")
                    .containsEntry(TableProperties.PARQUET_COMPRESSION, "zstd");
            assertThat(view.schema().sameSchema(table.schema())).isTrue();
            assertThat(view.spec()).isEqualTo(table.spec());
            assertThat(view.location()).isEqualTo(table.location());
            table.refresh();
            assertThat(table.properties()).doesNotContainKey(TableProperties.PARQUET_PAGE_SIZE_BYTES);
            assertThatThrownBy(() -> view.updateProperties().set("x", "y").commit())
                    .isInstanceOf(UnsupportedOperationException.class);
        }
    }
}
