package io.fleetlake.operations.health;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.time.Duration;

/**
 * When {@code fleet status} (and the dashboard's health panel, through fleet-exporter) calls something unhealthy: keys
 * {@code health.*}, defaults pinned by {@code HealthThresholdsTest}.
 *
 * @param maxLag a consumer group whose oldest unconsumed record waited longer is lagging ({@code health.max-lag}, 30 s:
 *     Flink commits its offsets at checkpoints, so a healthy pipeline shows up to one checkpoint interval plus the
 *     checkpoint's duration)
 * @param commitIntervals no data commit to {@code fleet.positions} for this many checkpoint intervals while records
 *     wait is a stall ({@code health.commit-intervals}, 3)
 * @param deadLetterWindow the window dead letters are counted over ({@code health.dead-letter-window}, 5 min)
 * @param maxDeadLetterShare dead letters above this share of the records appended to the raw topic in the window are
 *     unhealthy ({@code health.max-dead-letter-share}, 0.05) ...
 * @param minDeadLetterRate ... when they also exceed this many per second ({@code health.min-dead-letter-rate}, 0.1)
 * @param maxRedisAge Redis's newest position older than this while the raw topic has newer records is stale
 *     ({@code health.max-redis-age}, 2 min)
 * @param restartWindow a job restart (Flink failover) or a supervisor restart within this window is reported
 *     ({@code health.restart-window}, 15 min)
 * @param maxMaintenanceAge no maintenance run of a table for longer is reported ({@code health.max-maintenance-age}, 2
 *     h; the service runs every 30 min)
 * @param sampleWindow how long {@code fleet status} watches the MQTT broker and the raw topic to tell whether the
 *     connector moves records ({@code health.sample-window}, 5 s; 0 skips the check)
 */
public record HealthThresholds(
        Duration maxLag,
        int commitIntervals,
        Duration deadLetterWindow,
        double maxDeadLetterShare,
        double minDeadLetterRate,
        Duration maxRedisAge,
        Duration restartWindow,
        Duration maxMaintenanceAge,
        Duration sampleWindow) {
    public static final String MAX_LAG = "health.max-lag";
    public static final String COMMIT_INTERVALS = "health.commit-intervals";
    public static final String DEAD_LETTER_WINDOW = "health.dead-letter-window";
    public static final String MAX_DEAD_LETTER_SHARE = "health.max-dead-letter-share";
    public static final String MIN_DEAD_LETTER_RATE = "health.min-dead-letter-rate";
    public static final String MAX_REDIS_AGE = "health.max-redis-age";
    public static final String RESTART_WINDOW = "health.restart-window";
    public static final String MAX_MAINTENANCE_AGE = "health.max-maintenance-age";
    public static final String SAMPLE_WINDOW = "health.sample-window";

    public HealthThresholds {
        requireNonNull(maxLag, "maxLag is null");
        requireNonNull(deadLetterWindow, "deadLetterWindow is null");
        requireNonNull(maxRedisAge, "maxRedisAge is null");
        requireNonNull(restartWindow, "restartWindow is null");
        requireNonNull(maxMaintenanceAge, "maxMaintenanceAge is null");
        requireNonNull(sampleWindow, "sampleWindow is null");
        if (commitIntervals < 1) {
            throw new ConfigException(COMMIT_INTERVALS + " must be at least 1, got " + commitIntervals);
        }
        if (maxDeadLetterShare < 0 || maxDeadLetterShare > 1) {
            throw new ConfigException(MAX_DEAD_LETTER_SHARE + " must be between 0 and 1, got " + maxDeadLetterShare);
        }
        if (minDeadLetterRate < 0) {
            throw new ConfigException(MIN_DEAD_LETTER_RATE + " must not be negative, got " + minDeadLetterRate);
        }
        if (deadLetterWindow.isZero() || deadLetterWindow.isNegative()) {
            throw new ConfigException(DEAD_LETTER_WINDOW + " must be positive, got " + deadLetterWindow);
        }
    }

    public static HealthThresholds from(ConfigSource source) {
        return new HealthThresholds(
                source.duration(MAX_LAG, Duration.ofSeconds(30)),
                source.integer(COMMIT_INTERVALS, 3),
                source.duration(DEAD_LETTER_WINDOW, Duration.ofMinutes(5)),
                source.doubleValue(MAX_DEAD_LETTER_SHARE, 0.05),
                source.doubleValue(MIN_DEAD_LETTER_RATE, 0.1),
                source.duration(MAX_REDIS_AGE, Duration.ofMinutes(2)),
                source.duration(RESTART_WINDOW, Duration.ofMinutes(15)),
                source.duration(MAX_MAINTENANCE_AGE, Duration.ofHours(2)),
                source.duration(SAMPLE_WINDOW, Duration.ofSeconds(5)));
    }
}
