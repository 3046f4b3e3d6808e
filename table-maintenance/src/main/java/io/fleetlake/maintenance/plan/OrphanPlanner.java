package io.fleetlake.maintenance.plan;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Decides which stored files are orphans that can be deleted: files in the table's location that no metadata of the
 * table refers to (no kept snapshot, manifest, manifest list, statistics file or metadata file), and that are older
 * than the minimum age.
 *
 * <p>The minimum age is what makes this safe beside a streaming writer: a file the writer has written but not yet
 * committed is unreferenced, yet not an orphan. The Flink pipeline writes data files (and its temporary manifests)
 * during a checkpoint and commits them when the checkpoint completes, or, after a failure, when it restores that
 * checkpoint, possibly days later. Only files older than any commit can still be pending are deleted.
 */
public final class OrphanPlanner {
    private OrphanPlanner() {}

    /**
     * @param stored every file under the table's location
     * @param referenced every location the table's metadata refers to
     * @return the orphans, in the order listed
     */
    public static List<StoredFile> orphans(
            Iterable<StoredFile> stored, Set<String> referenced, Instant now, Duration minAge) {
        requireNonNull(stored, "stored is null");
        requireNonNull(referenced, "referenced is null");
        requireNonNull(now, "now is null");
        requireNonNull(minAge, "minAge is null");
        if (minAge.isNegative()) {
            throw new IllegalArgumentException("minAge must not be negative, got " + minAge);
        }
        Set<String> known = referenced.stream().map(OrphanPlanner::normalize).collect(Collectors.toSet());
        Instant newest = now.minus(minAge);
        List<StoredFile> orphans = new ArrayList<>();
        for (StoredFile file : stored) {
            if (file.createdAt().isBefore(newest) && !known.contains(normalize(file.location()))) {
                orphans.add(file);
            }
        }
        return orphans;
    }

    /**
     * The location with the S3 scheme spellings made equal ({@code s3a://}, {@code s3n://} and {@code s3://} name the
     * same object) and repeated slashes in the path collapsed, so that a file listed by the storage matches the way
     * metadata wrote its name.
     */
    static String normalize(String location) {
        int schemeEnd = location.indexOf("://");
        if (schemeEnd < 0) {
            return location.replaceAll("/+", "/");
        }
        String scheme = location.substring(0, schemeEnd).toLowerCase(Locale.ROOT);
        if (scheme.equals("s3a") || scheme.equals("s3n")) {
            scheme = "s3";
        }
        return scheme + "://" + location.substring(schemeEnd + 3).replaceAll("/+", "/");
    }
}
