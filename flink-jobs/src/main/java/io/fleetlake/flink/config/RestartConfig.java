package io.fleetlake.flink.config;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;

/**
 * How the pipeline's job restarts after a real fault (Kafka, S3, the catalog or Redis' host unreachable, a task
 * manager lost), keys {@code pipeline.restart-*}: Flink's exponential-delay strategy, never giving up. A bad record
 * never restarts the job (it is dead-lettered); a restart means something outside the job is wrong, and the growing
 * delay keeps a job that cannot run from hammering what is down. Each restart is logged with its cause and counted in
 * Flink's job metric {@code numRestarts}.
 *
 * @param initialBackoff delay before the first restart
 * @param maxBackoff longest delay between two restarts
 * @param backoffMultiplier factor between one delay and the next
 * @param resetBackoffAfter a job that ran this long without failing starts over at {@code initialBackoff}
 */
public record RestartConfig(
        Duration initialBackoff, Duration maxBackoff, double backoffMultiplier, Duration resetBackoffAfter)
        implements Serializable {
    public static final String INITIAL_BACKOFF = "pipeline.restart-initial-backoff";
    public static final String MAX_BACKOFF = "pipeline.restart-max-backoff";
    public static final String BACKOFF_MULTIPLIER = "pipeline.restart-backoff-multiplier";
    public static final String RESET_BACKOFF_AFTER = "pipeline.restart-reset-backoff-after";

    public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofSeconds(1);
    public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofMinutes(1);
    public static final double DEFAULT_BACKOFF_MULTIPLIER = 2.0;
    public static final Duration DEFAULT_RESET_BACKOFF_AFTER = Duration.ofMinutes(10);
    /** Spreads the restarts of several jobs that failed together; not a setting. */
    static final double JITTER = 0.1;

    private static final long serialVersionUID = 1L;

    public RestartConfig {
        requirePositive(INITIAL_BACKOFF, requireNonNull(initialBackoff, "initialBackoff is null"));
        requirePositive(MAX_BACKOFF, requireNonNull(maxBackoff, "maxBackoff is null"));
        requirePositive(RESET_BACKOFF_AFTER, requireNonNull(resetBackoffAfter, "resetBackoffAfter is null"));
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            throw new ConfigException("Invalid configuration " + MAX_BACKOFF + " = " + maxBackoff + ": it must not be"
                    + " shorter than " + INITIAL_BACKOFF + " = " + initialBackoff);
        }
        if (!(backoffMultiplier >= 1) || Double.isInfinite(backoffMultiplier)) {
            throw new ConfigException("Invalid configuration " + BACKOFF_MULTIPLIER + " = " + backoffMultiplier
                    + ": expected a finite factor of 1 or more, such as 2");
        }
    }

    public static RestartConfig defaults() {
        return from(ConfigSource.empty());
    }

    public static RestartConfig from(ConfigSource source) {
        return new RestartConfig(
                source.duration(INITIAL_BACKOFF, DEFAULT_INITIAL_BACKOFF),
                source.duration(MAX_BACKOFF, DEFAULT_MAX_BACKOFF),
                source.doubleValue(BACKOFF_MULTIPLIER, DEFAULT_BACKOFF_MULTIPLIER),
                source.duration(RESET_BACKOFF_AFTER, DEFAULT_RESET_BACKOFF_AFTER));
    }

    /** Sets the strategy on a job's (or a MiniCluster's) Flink configuration and returns it. */
    public Configuration applyTo(Configuration configuration) {
        configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "exponential-delay");
        configuration.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF, initialBackoff);
        configuration.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF, maxBackoff);
        configuration.set(
                RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_BACKOFF_MULTIPLIER, backoffMultiplier);
        configuration.set(
                RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_RESET_BACKOFF_THRESHOLD, resetBackoffAfter);
        configuration.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_JITTER_FACTOR, JITTER);
        configuration.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS, Integer.MAX_VALUE);
        return configuration;
    }

    private static void requirePositive(String key, Duration duration) {
        if (duration.isZero() || duration.isNegative()) {
            throw new ConfigException(
                    "Invalid configuration " + key + " = " + duration + ": expected a positive duration such as 1s");
        }
    }
}
