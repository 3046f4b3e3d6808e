package io.fleetlake.maintenance.run;

import static java.util.Objects.requireNonNull;

import io.fleetlake.maintenance.plan.CompactionPolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.BaseCombinedScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.actions.BinPackRewriteFilePlanner;
import org.apache.iceberg.actions.RewriteDataFilesCommitManager;
import org.apache.iceberg.actions.RewriteFileGroup;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.sink.RowDataTaskWriterFactory;
import org.apache.iceberg.flink.source.DataIterator;
import org.apache.iceberg.flink.source.RowDataFileScanTaskReader;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.util.PropertyUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts small data files, with Iceberg's own pieces in the order Iceberg's Flink maintenance task
 * ({@code RewriteDataFiles}) chains them, without a Flink job around them:
 *
 * <ol>
 *   <li>plan: {@link BinPackRewriteFilePlanner} on the current snapshot groups the files to rewrite per partition;
 *   <li>rewrite each group: Iceberg's Flink reader ({@link RowDataFileScanTaskReader}, which applies the delete files
 *       of each data file, so equality deletes of the upsert table are applied) into Iceberg's Flink writer
 *       ({@link RowDataTaskWriterFactory}), files of the target size;
 *   <li>commit: {@link RewriteDataFilesCommitManager}, one {@code replace} snapshot validated from the planned snapshot,
 *       with <b>the starting snapshot's data sequence number</b>, so equality deletes the streaming writer commits while
 *       the rewrite runs still apply to the new files and do not conflict; new files are deleted when the commit fails.
 * </ol>
 *
 * Appends of the streaming writer never conflict with the rewrite (they add files, Iceberg rebases the rewrite on
 * them); a real conflict (a concurrent rewrite or row-level delete of the same files) fails the commit and the run is
 * retried by {@link TableMaintainer} on fresh metadata.
 */
final class DataCompaction {
    private static final Logger LOG = LoggerFactory.getLogger(DataCompaction.class);

    private final CompactionPolicy policy;

    DataCompaction(CompactionPolicy policy) {
        this.policy = requireNonNull(policy, "policy is null");
    }

    StepResults.Compaction run(Table table, boolean dryRun, Progress progress) {
        table.refresh();
        Snapshot start = table.currentSnapshot();
        if (start == null) {
            return StepResults.Compaction.NONE;
        }
        List<RewriteFileGroup> groups = plan(table, start);
        Set<StructLike> partitions = new HashSet<>();
        long filesRewritten = 0;
        long bytesRewritten = 0;
        for (RewriteFileGroup group : groups) {
            partitions.add(group.info().partition());
            filesRewritten += group.inputFileNum();
            bytesRewritten += group.inputFilesSizeInBytes();
        }
        if (groups.isEmpty()) {
            progress.step("  compaction: nothing to compact");
            return StepResults.Compaction.NONE;
        }
        progress.step(String.format(
                Locale.ROOT,
                "  compaction: %,d files (%s) in %,d partitions, %,d groups%s",
                filesRewritten,
                TableReport.bytes(bytesRewritten),
                partitions.size(),
                groups.size(),
                dryRun ? " would be rewritten" : ""));
        if (dryRun) {
            return new StepResults.Compaction(
                    groups.size(), partitions.size(), filesRewritten, bytesRewritten, 0, 0, 0);
        }
        RewriteDataFilesCommitManager commitManager =
                new RewriteDataFilesCommitManager(table, start.snapshotId(), true);
        List<RewriteFileGroup> written = new ArrayList<>();
        try {
            int task = 0;
            for (RewriteFileGroup group : groups) {
                group.setOutputFiles(rewrite(table, group, task++));
                written.add(group);
            }
        } catch (RuntimeException e) {
            written.forEach(commitManager::abortFileGroup);
            throw e;
        }
        commitManager.commitOrClean(new LinkedHashSet<>(groups));
        long filesAdded = 0;
        long bytesAdded = 0;
        for (RewriteFileGroup group : groups) {
            for (DataFile added : group.addedFiles()) {
                filesAdded++;
                bytesAdded += added.fileSizeInBytes();
            }
        }
        LOG.info(
                "Compacted {}: {} files into {} in {} partitions, from snapshot {}",
                table.name(),
                filesRewritten,
                filesAdded,
                partitions.size(),
                start.snapshotId());
        return new StepResults.Compaction(
                groups.size(), partitions.size(), filesRewritten, bytesRewritten, filesAdded, bytesAdded, 0);
    }

    private List<RewriteFileGroup> plan(Table table, Snapshot start) {
        BinPackRewriteFilePlanner planner =
                new BinPackRewriteFilePlanner(table, Expressions.alwaysTrue(), start.snapshotId(), false);
        planner.init(policy.plannerOptions());
        List<RewriteFileGroup> groups = new ArrayList<>();
        try (CloseableIterable<RewriteFileGroup> planned = planner.plan().groups()) {
            planned.forEach(groups::add);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot plan the compaction of " + table.name(), e);
        }
        return groups;
    }

    private static Set<DataFile> rewrite(Table table, RewriteFileGroup group, int task) {
        Schema schema = table.schema();
        RowDataTaskWriterFactory writers = new RowDataTaskWriterFactory(
                table,
                FlinkSchemaUtil.convert(schema),
                group.maxOutputFileSize(),
                FileFormat.fromString(PropertyUtil.propertyAsString(
                        table.properties(),
                        TableProperties.DEFAULT_FILE_FORMAT,
                        TableProperties.DEFAULT_FILE_FORMAT_DEFAULT)),
                table.properties(),
                null,
                false);
        writers.initialize(task, 0);
        RowDataFileScanTaskReader reader = new RowDataFileScanTaskReader(
                schema, schema, table.properties().get(TableProperties.DEFAULT_NAME_MAPPING), false, List.of());
        TaskWriter<RowData> writer = writers.create();
        try (DataIterator<RowData> rows = new DataIterator<>(
                reader, new BaseCombinedScanTask(group.fileScanTasks()), table.io(), table.encryption())) {
            while (rows.hasNext()) {
                writer.write(rows.next());
            }
            return Set.of(writer.dataFiles());
        } catch (IOException | RuntimeException e) {
            try {
                writer.abort();
            } catch (IOException abortFailure) {
                e.addSuppressed(abortFailure);
            }
            throw new IllegalStateException(
                    "Rewriting " + group.inputFileNum() + " files of " + table.name() + " failed: " + e.getMessage(),
                    e);
        }
    }
}
