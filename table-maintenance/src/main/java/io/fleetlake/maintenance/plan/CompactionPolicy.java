package io.fleetlake.maintenance.plan;

import java.util.Map;
import org.apache.iceberg.actions.BinPackRewriteFilePlanner;
import org.apache.iceberg.actions.SizeBasedFileRewritePlanner;

/**
 * How data files are compacted. The grouping itself is Iceberg's {@link BinPackRewriteFilePlanner} (the planner of
 * Iceberg's Spark and Flink compaction): per partition, files outside 75 %–180 % of the target size, and files with at
 * least {@code deleteFileThreshold} delete files applying, are packed into groups that become files of the target size;
 * a partition is compacted once it has {@code minInputFiles} such files (or enough data for one target-size file).
 */
public record CompactionPolicy(long targetFileSizeBytes, int minInputFiles, int deleteFileThreshold) {
    public CompactionPolicy {
        if (targetFileSizeBytes < 1) {
            throw new IllegalArgumentException("targetFileSizeBytes must be positive, got " + targetFileSizeBytes);
        }
        if (minInputFiles < 1) {
            throw new IllegalArgumentException("minInputFiles must be positive, got " + minInputFiles);
        }
        if (deleteFileThreshold < 1) {
            throw new IllegalArgumentException("deleteFileThreshold must be positive, got " + deleteFileThreshold);
        }
    }

    /** The options of {@link BinPackRewriteFilePlanner#init(Map)}. */
    public Map<String, String> plannerOptions() {
        return Map.of(
                SizeBasedFileRewritePlanner.TARGET_FILE_SIZE_BYTES, Long.toString(targetFileSizeBytes),
                SizeBasedFileRewritePlanner.MIN_INPUT_FILES, Integer.toString(minInputFiles),
                BinPackRewriteFilePlanner.DELETE_FILE_THRESHOLD, Integer.toString(deleteFileThreshold));
    }
}
