package io.fleetlake.maintenance.plan;

import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.actions.BinPackRewriteFilePlanner;
import org.apache.iceberg.actions.RewriteFileGroup;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the policy makes Iceberg's planner pick, on a table whose files exist only in its metadata (planning reads no
 * data file): sizes and delete files decide.
 */
class CompactionPolicyTest {
    private static final long MIB = 1024 * 1024;
    private static final CompactionPolicy POLICY = new CompactionPolicy(128 * MIB, 5, 10);
    private static final Schema SCHEMA =
            new Schema(required(1, "vehicle_id", Types.StringType.get()), required(2, "day", Types.StringType.get()));
    private static final PartitionSpec SPEC =
            PartitionSpec.builderFor(SCHEMA).identity("day").build();

    private Table table;

    @BeforeEach
    void createTable() {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.initialize("test", Map.of());
        catalog.createNamespace(Namespace.of("fleet"));
        table = catalog.createTable(
                TableIdentifier.of("fleet", "positions"), SCHEMA, SPEC, Map.of("format-version", "2"));
    }

    @Test
    void aPartitionOfSmallFilesIsCompactedAndATargetSizeFileIsLeftAlone() throws IOException {
        AppendFiles append = table.newAppend();
        for (int file = 0; file < 10; file++) {
            append.appendFile(dataFile("day=2026-11-30", "small-" + file, MIB));
        }
        append.appendFile(dataFile("day=2026-11-29", "compacted", 128 * MIB));
        append.appendFile(dataFile("day=2026-11-28", "few-1", MIB));
        append.appendFile(dataFile("day=2026-11-28", "few-2", MIB));
        append.commit();

        List<RewriteFileGroup> groups = plan();

        assertThat(groups).hasSize(1);
        assertThat(groups.get(0).inputFileNum()).isEqualTo(10);
        assertThat(groups.get(0).info().partition().get(0, String.class)).isEqualTo("2026-11-30");
    }

    @Test
    void aTargetSizeFileWithManyDeleteFilesIsRewrittenToApplyThem() throws IOException {
        DataFile big = dataFile("day=2026-11-30", "upserted", 128 * MIB);
        table.newAppend().appendFile(big).commit();
        for (int commit = 0; commit < 10; commit++) {
            RowDelta delta = table.newRowDelta();
            delta.addDeletes(FileMetadata.deleteFileBuilder(SPEC)
                    .ofEqualityDeletes(1, 2)
                    .withPath("s3://warehouse/fleet/positions/data/eq-" + commit + ".parquet")
                    .withFormat(FileFormat.PARQUET)
                    .withFileSizeInBytes(1024)
                    .withRecordCount(1)
                    .withPartitionPath("day=2026-11-30")
                    .build());
            delta.commit();
        }

        assertThat(plan()).singleElement().satisfies(group -> assertThat(group.inputFileNum())
                .isEqualTo(1));
    }

    @Test
    void nineDeleteFilesAreNotEnough() throws IOException {
        table.newAppend()
                .appendFile(dataFile("day=2026-11-30", "upserted", 128 * MIB))
                .commit();
        for (int commit = 0; commit < 9; commit++) {
            table.newRowDelta()
                    .addDeletes(FileMetadata.deleteFileBuilder(SPEC)
                            .ofEqualityDeletes(1, 2)
                            .withPath("s3://warehouse/fleet/positions/data/eq-" + commit + ".parquet")
                            .withFormat(FileFormat.PARQUET)
                            .withFileSizeInBytes(1024)
                            .withRecordCount(1)
                            .withPartitionPath("day=2026-11-30")
                            .build())
                    .commit();
        }

        assertThat(plan()).isEmpty();
    }

    @Test
    void theOptionsAreIcebergsPlannerKeys() {
        assertThat(POLICY.plannerOptions())
                .containsEntry("target-file-size-bytes", Long.toString(128 * MIB))
                .containsEntry("min-input-files", "5")
                .containsEntry("delete-file-threshold", "10");
    }

    private List<RewriteFileGroup> plan() throws IOException {
        BinPackRewriteFilePlanner planner = new BinPackRewriteFilePlanner(
                table, Expressions.alwaysTrue(), table.currentSnapshot().snapshotId(), false);
        planner.init(POLICY.plannerOptions());
        List<RewriteFileGroup> groups = new ArrayList<>();
        try (CloseableIterable<RewriteFileGroup> planned = planner.plan().groups()) {
            planned.forEach(groups::add);
        }
        return groups;
    }

    private static DataFile dataFile(String partition, String name, long size) {
        return DataFiles.builder(SPEC)
                .withPath("s3://warehouse/fleet/positions/data/" + name + ".parquet")
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(size)
                .withRecordCount(size / 100)
                .withPartitionPath(partition)
                .build();
    }
}
