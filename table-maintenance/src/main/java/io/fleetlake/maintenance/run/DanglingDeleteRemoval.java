package io.fleetlake.maintenance.run;

import io.fleetlake.maintenance.plan.DanglingDeletes;
import io.fleetlake.maintenance.plan.DeleteFileView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * Drops delete files that apply to no live data file any more ({@link DanglingDeletes}), in one {@code replace} commit
 * validated from the snapshot they were found in.
 */
final class DanglingDeleteRemoval {
    long run(Table table, boolean dryRun) {
        table.refresh();
        Snapshot snapshot = table.currentSnapshot();
        if (snapshot == null || snapshot.deleteManifests(table.io()).isEmpty()) {
            return 0;
        }
        Map<Integer, PartitionSpec> specs = table.specs();
        Map<String, List<Long>> dataSequenceNumbers = new HashMap<>();
        for (ManifestFile manifest : snapshot.dataManifests(table.io())) {
            try (ManifestReader<DataFile> files = ManifestFiles.read(manifest, table.io(), specs)) {
                for (DataFile file : files) {
                    dataSequenceNumbers
                            .computeIfAbsent(partition(file, specs), key -> new ArrayList<>())
                            .add(file.dataSequenceNumber());
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read manifest " + manifest.path(), e);
            }
        }
        Map<String, DeleteFile> deletesByLocation = new HashMap<>();
        List<DeleteFileView> deletes = new ArrayList<>();
        for (ManifestFile manifest : snapshot.deleteManifests(table.io())) {
            try (ManifestReader<DeleteFile> files = ManifestFiles.readDeleteManifest(manifest, table.io(), specs)) {
                for (DeleteFile file : files) {
                    DeleteFile copy = file.copyWithoutStats();
                    deletesByLocation.put(copy.location(), copy);
                    boolean equality = copy.content() == FileContent.EQUALITY_DELETES;
                    deletes.add(new DeleteFileView(
                            copy.location(),
                            partition(copy, specs),
                            copy.dataSequenceNumber(),
                            equality,
                            equality && specs.get(copy.specId()).isUnpartitioned()));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read delete manifest " + manifest.path(), e);
            }
        }
        Set<String> dangling = DanglingDeletes.find(dataSequenceNumbers, deletes).stream()
                .map(DeleteFileView::location)
                .collect(Collectors.toSet());
        if (dangling.isEmpty() || dryRun) {
            return dangling.size();
        }
        RewriteFiles rewrite = table.newRewrite().validateFromSnapshot(snapshot.snapshotId());
        dangling.forEach(location -> rewrite.deleteFile(deletesByLocation.get(location)));
        rewrite.commit();
        return dangling.size();
    }

    private static String partition(ContentFile<?> file, Map<Integer, PartitionSpec> specs) {
        return file.specId() + "/" + specs.get(file.specId()).partitionToPath(file.partition());
    }
}
