package io.fleetlake.bench.phase;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * How big a table's current state is for a reader: data files per partition, and the metadata a query of the current
 * snapshot reads (the metadata JSON, the manifest list and its manifests), plus everything stored under
 * {@code metadata/} (older metadata files, manifests and manifest lists of older snapshots).
 */
record TableFootprint(
        long snapshots,
        long dataFiles,
        long partitions,
        long minFilesPerPartition,
        long medianFilesPerPartition,
        long maxFilesPerPartition,
        long metadataJsonBytes,
        long manifestListBytes,
        long manifests,
        long manifestBytes,
        long storedMetadataFiles,
        long storedMetadataBytes) {

    static TableFootprint of(Table table) {
        table.refresh();
        Snapshot current = table.currentSnapshot();
        Map<String, Long> filesPerPartition = new HashMap<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                filesPerPartition.merge(table.spec().partitionToPath(task.file().partition()), 1L, Long::sum);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Long> counts = new ArrayList<>(filesPerPartition.values());
        counts.sort(Long::compare);
        long snapshots = 0;
        for (Snapshot ignored : table.snapshots()) {
            snapshots++;
        }
        String metadataLocation =
                ((HasTableOperations) table).operations().current().metadataFileLocation();
        List<ManifestFile> manifests = current.allManifests(table.io());
        long storedFiles = 0;
        long storedBytes = 0;
        if (table.io() instanceof SupportsPrefixOperations storage) {
            for (FileInfo file : storage.listPrefix(table.location() + "/metadata/")) {
                storedFiles++;
                storedBytes += file.size();
            }
        }
        return new TableFootprint(
                snapshots,
                counts.stream().mapToLong(Long::longValue).sum(),
                counts.size(),
                counts.isEmpty() ? 0 : counts.get(0),
                counts.isEmpty() ? 0 : counts.get(counts.size() / 2),
                counts.isEmpty() ? 0 : counts.get(counts.size() - 1),
                table.io().newInputFile(metadataLocation).getLength(),
                table.io().newInputFile(current.manifestListLocation()).getLength(),
                manifests.size(),
                manifests.stream().mapToLong(ManifestFile::length).sum(),
                storedFiles,
                storedBytes);
    }

    /** Bytes a query of the current snapshot reads before it reads data: JSON, manifest list, manifests. */
    long queryMetadataBytes() {
        return metadataJsonBytes + manifestListBytes + manifestBytes;
    }

    String describe() {
        return String.format(
                Locale.ROOT,
                "%,d snapshots; %,d data files in %,d partitions (per partition min %,d, median %,d, max %,d);"
                        + " metadata read by a query %s (metadata JSON %s, manifest list %s, %,d manifests %s);"
                        + " stored under metadata/ %,d files, %s",
                snapshots,
                dataFiles,
                partitions,
                minFilesPerPartition,
                medianFilesPerPartition,
                maxFilesPerPartition,
                bytes(queryMetadataBytes()),
                bytes(metadataJsonBytes),
                bytes(manifestListBytes),
                manifests,
                bytes(manifestBytes),
                storedMetadataFiles,
                bytes(storedMetadataBytes));
    }

    static String bytes(long bytes) {
        return bytes < 1024 * 1024
                ? String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0)
                : String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
