package io.fleetlake.maintenance.plan;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Finds delete files that no longer apply to any live data file, so that they can be dropped after compaction.
 *
 * <p>The upsert table {@code fleet.vehicle_minutes} gets equality delete files at every commit. Compaction reads the
 * data with those deletes applied and commits the new files with the data sequence number of the snapshot it started
 * from, so deletes committed by the writer while compaction ran still apply to the new files. The deletes the rewrite
 * already applied have a sequence number no higher than every remaining data file of their partition, so by Iceberg's
 * rules they apply to nothing any more, yet every reader would still load them: they are dangling.
 *
 * <p>Iceberg's rules: an equality delete applies to data files of its partition (every partition when global) with a
 * strictly lower data sequence number; a position delete to those with a lower or equal one.
 */
public final class DanglingDeletes {
    private DanglingDeletes() {}

    /**
     * @param dataSequenceNumbers of every live data file, by partition (as named in {@link DeleteFileView#partition()})
     * @param deletes every live delete file
     * @return the delete files that apply to no live data file
     */
    public static List<DeleteFileView> find(Map<String, List<Long>> dataSequenceNumbers, List<DeleteFileView> deletes) {
        requireNonNull(dataSequenceNumbers, "dataSequenceNumbers is null");
        requireNonNull(deletes, "deletes is null");
        Map<String, Long> lowestByPartition = new HashMap<>();
        dataSequenceNumbers.forEach((partition, numbers) -> numbers.stream()
                .mapToLong(Long::longValue)
                .min()
                .ifPresent(lowest -> lowestByPartition.put(partition, lowest)));
        OptionalLong lowestOverall =
                lowestByPartition.values().stream().mapToLong(Long::longValue).min();
        return deletes.stream()
                .filter(delete -> {
                    OptionalLong lowest = delete.global()
                            ? lowestOverall
                            : lowestByPartition.containsKey(delete.partition())
                                    ? OptionalLong.of(lowestByPartition.get(delete.partition()))
                                    : OptionalLong.empty();
                    if (lowest.isEmpty()) {
                        return true;
                    }
                    return delete.equality()
                            ? lowest.getAsLong() >= delete.dataSequenceNumber()
                            : lowest.getAsLong() > delete.dataSequenceNumber();
                })
                .toList();
    }
}
