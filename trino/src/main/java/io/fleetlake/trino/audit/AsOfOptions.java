package io.fleetlake.trino.audit;

import java.time.Clock;
import java.time.ZoneId;
import picocli.CommandLine.Option;

/** The mutually exclusive time-travel options of {@code fleet audit track}. */
final class AsOfOptions {
    @Option(
            names = "--as-of-snapshot",
            paramLabel = "ID",
            description = "Read the table as it stood at this snapshot (fleet audit snapshots lists them).")
    private Long snapshotId;

    @Option(
            names = "--as-of-tag",
            paramLabel = "NAME",
            description = "Read the table as it stood at this tag, for example audit-2026-11-28 (fleet audit tags).")
    private String tag;

    @Option(
            names = "--as-of",
            paramLabel = "TIME",
            description = "Read the table as it stood at this instant (its newest snapshot committed by then).")
    private String instant;

    AsOf toAsOf(ZoneId zone, Clock clock) {
        if (snapshotId != null) {
            return AsOf.snapshot(snapshotId);
        }
        if (tag != null) {
            return AsOf.tag(tag);
        }
        if (instant != null) {
            return AsOf.instant(Times.parseInstant("--as-of", instant, zone, clock));
        }
        return AsOf.current();
    }
}
