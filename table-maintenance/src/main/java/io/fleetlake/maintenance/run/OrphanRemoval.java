package io.fleetlake.maintenance.run;

import static java.util.Objects.requireNonNull;

import io.fleetlake.maintenance.plan.OrphanPlanner;
import io.fleetlake.maintenance.plan.StoredFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.ReachableFileUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.BulkDeletionFailureException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsBulkOperations;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes orphan files ({@link OrphanPlanner}): everything under the table's location that the table's metadata does
 * not refer to and that is older than the minimum age. The metadata is read <em>before</em> the storage is listed, so
 * a file committed in between is either referenced or younger than any sane minimum age.
 *
 * <p>Iceberg's own orphan removal exists only as Spark and Flink streaming actions; this is the same comparison
 * (reachable files of every kept snapshot, metadata log and statistics files against a prefix listing of the
 * storage) over the table's own {@code FileIO}.
 */
final class OrphanRemoval {
    private static final Logger LOG = LoggerFactory.getLogger(OrphanRemoval.class);

    private final Duration minAge;

    OrphanRemoval(Duration minAge) {
        this.minAge = requireNonNull(minAge, "minAge is null");
    }

    StepResults.Orphans run(Table table, Instant now, boolean dryRun) {
        if (!(table.io() instanceof SupportsPrefixOperations storage)) {
            throw new IllegalStateException("Orphan removal needs a FileIO that lists prefixes (S3FileIO does); "
                    + table.name() + " uses " + table.io().getClass().getName());
        }
        table.refresh();
        Set<String> referenced = referencedFiles(table);
        List<StoredFile> stored = new ArrayList<>();
        for (FileInfo file : storage.listPrefix(table.location())) {
            stored.add(new StoredFile(file.location(), file.size(), Instant.ofEpochMilli(file.createdAtMillis())));
        }
        List<StoredFile> orphans = OrphanPlanner.orphans(stored, referenced, now, minAge);
        long bytes = orphans.stream().mapToLong(StoredFile::sizeBytes).sum();
        if (dryRun || orphans.isEmpty()) {
            return new StepResults.Orphans(orphans.size(), 0, bytes);
        }
        List<String> locations = orphans.stream().map(StoredFile::location).toList();
        if (table.io() instanceof SupportsBulkOperations bulk) {
            try {
                bulk.deleteFiles(locations);
            } catch (BulkDeletionFailureException e) {
                throw new IllegalStateException(
                        e.numberFailedObjects() + " of " + locations.size() + " orphan files of " + table.name()
                                + " could not be deleted; the next run tries again",
                        e);
            }
        } else {
            locations.forEach(table.io()::deleteFile);
        }
        LOG.info(
                "Removed {} orphan files ({} bytes) of {} older than {} ({} files stored, {} referenced)",
                orphans.size(),
                bytes,
                table.name(),
                minAge,
                stored.size(),
                referenced.size());
        return new StepResults.Orphans(orphans.size(), orphans.size(), bytes);
    }

    /** Every file the table's metadata refers to: metadata files, statistics, and what every kept snapshot reads. */
    static Set<String> referencedFiles(Table table) {
        Set<String> referenced = new HashSet<>(ReachableFileUtil.metadataFileLocations(table, false));
        referenced.add(ReachableFileUtil.versionHintLocation(table));
        referenced.addAll(ReachableFileUtil.statisticsFilesLocations(table));
        for (PartitionStatisticsFile file : table.partitionStatisticsFiles()) {
            referenced.add(file.path());
        }
        Map<Integer, PartitionSpec> specs = table.specs();
        Set<String> manifestsRead = new HashSet<>();
        for (Snapshot snapshot : table.snapshots()) {
            if (snapshot.manifestListLocation() != null) {
                referenced.add(snapshot.manifestListLocation());
            }
            for (ManifestFile manifest : snapshot.allManifests(table.io())) {
                if (!manifestsRead.add(manifest.path())) {
                    continue;
                }
                referenced.add(manifest.path());
                if (manifest.content() == ManifestContent.DATA) {
                    try (CloseableIterable<String> paths = ManifestFiles.readPaths(manifest, table.io(), specs)) {
                        paths.forEach(referenced::add);
                    } catch (IOException e) {
                        throw new UncheckedIOException("Cannot read manifest " + manifest.path(), e);
                    }
                } else {
                    try (ManifestReader<DeleteFile> deletes =
                            ManifestFiles.readDeleteManifest(manifest, table.io(), specs)) {
                        deletes.forEach(file -> referenced.add(file.location()));
                    } catch (IOException e) {
                        throw new UncheckedIOException("Cannot read delete manifest " + manifest.path(), e);
                    }
                }
            }
        }
        LOG.debug("{} files referenced by {}", referenced.size(), table.name());
        return referenced;
    }
}
