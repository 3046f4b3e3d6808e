package io.fleetlake.maintenance.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OrphanPlannerTest {
    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private static final Duration THREE_DAYS = Duration.ofDays(3);

    @Test
    void onlyUnreferencedFilesOlderThanTheMinimumAgeAreOrphans() {
        StoredFile committed = file("s3://warehouse/fleet/positions/data/a.parquet", Duration.ofDays(10));
        StoredFile oldOrphan = file("s3://warehouse/fleet/positions/data/b.parquet", Duration.ofDays(4));
        StoredFile pendingCommit = file("s3://warehouse/fleet/positions/data/c.parquet", Duration.ofHours(2));
        StoredFile justOldEnough = file("s3://warehouse/fleet/positions/metadata/x.avro", THREE_DAYS.plusMillis(1));
        StoredFile exactlyMinAge = file("s3://warehouse/fleet/positions/metadata/y.avro", THREE_DAYS);

        List<StoredFile> orphans = OrphanPlanner.orphans(
                List.of(committed, oldOrphan, pendingCommit, justOldEnough, exactlyMinAge),
                Set.of("s3://warehouse/fleet/positions/data/a.parquet"),
                NOW,
                THREE_DAYS);

        assertThat(orphans).containsExactly(oldOrphan, justOldEnough);
    }

    @Test
    void schemeSpellingsAndDoubleSlashesNameTheSameFile() {
        StoredFile listed = file("s3://warehouse/fleet//positions/data/a.parquet", Duration.ofDays(10));

        assertThat(OrphanPlanner.orphans(
                        List.of(listed), Set.of("s3a://warehouse/fleet/positions/data/a.parquet"), NOW, THREE_DAYS))
                .isEmpty();
        assertThat(OrphanPlanner.normalize("S3N://bucket/a//b")).isEqualTo("s3://bucket/a/b");
        assertThat(OrphanPlanner.normalize("/tmp//a")).isEqualTo("/tmp/a");
    }

    private static StoredFile file(String location, Duration age) {
        return new StoredFile(location, 100, NOW.minus(age));
    }
}
