package io.fleetlake.trino.audit;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/** The time buckets of the rejections audit, in UTC. */
public enum RejectionBucket {
    HOUR("hour", Duration.ofDays(1)),
    DAY("day", Duration.ofDays(30));

    private final String unit;
    private final Duration defaultRange;

    RejectionBucket(String unit, Duration defaultRange) {
        this.unit = unit;
        this.defaultRange = defaultRange;
    }

    /** The unit Trino's {@code date_trunc} takes. */
    public String unit() {
        return unit;
    }

    /** How far back the audit looks when no start is given: a day of hours, or thirty days. */
    public Duration defaultRange() {
        return defaultRange;
    }

    /** The bucket named {@code hour} or {@code day} (any case). */
    public static RejectionBucket fromName(String name) {
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(bucket -> bucket.unit.equals(wanted))
                .findFirst()
                .orElseThrow(() -> new AuditException(
                        AuditError.INVALID_ARGUMENT, "Bucket '" + name + "' is not hour or day: use hour or day"));
    }
}
