package io.fleetlake.stack.supervision;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.time.Duration;

/**
 * How the stack's supervisor restarts a component whose process ended by itself ({@code stack.restart-*} keys).
 *
 * <p>The n-th failure in a row waits {@code initialDelay * 2^(n-1)}, at most {@code maxDelay}, before the next start.
 * A failure is an exit of a running component, or a restart that exits or does not become healthy within the stack's
 * start timeout. A component that has stayed up for {@code stableAfter} starts counting from zero again. After {@code
 * maxAttempts} restarts in a row the supervisor gives up on it (logged as an error, shown by {@code fleet status} and
 * {@code fleet verify}) and leaves the rest of the stack running; 0 means it never gives up.
 *
 * @param initialDelay wait before the first restart
 * @param maxDelay longest wait between two restarts
 * @param maxAttempts restarts in a row before giving up; 0 for never
 * @param stableAfter how long a restarted component must stay up for its failures to be forgotten
 */
public record SupervisionPolicy(Duration initialDelay, Duration maxDelay, int maxAttempts, Duration stableAfter) {
    public static final String INITIAL_DELAY = "stack.restart-initial-delay";
    public static final String MAX_DELAY = "stack.restart-max-delay";
    public static final String MAX_ATTEMPTS = "stack.restart-max-attempts";
    public static final String STABLE_AFTER = "stack.restart-stable-after";

    public static final Duration DEFAULT_INITIAL_DELAY = Duration.ofSeconds(1);
    public static final Duration DEFAULT_MAX_DELAY = Duration.ofMinutes(1);
    public static final int DEFAULT_MAX_ATTEMPTS = 10;
    public static final Duration DEFAULT_STABLE_AFTER = Duration.ofMinutes(2);

    public SupervisionPolicy {
        requireNonNull(initialDelay, "initialDelay is null");
        requireNonNull(maxDelay, "maxDelay is null");
        requireNonNull(stableAfter, "stableAfter is null");
        requirePositive(INITIAL_DELAY, initialDelay);
        requirePositive(MAX_DELAY, maxDelay);
        requirePositive(STABLE_AFTER, stableAfter);
        if (maxDelay.compareTo(initialDelay) < 0) {
            throw new ConfigException(
                    MAX_DELAY + " = " + maxDelay + " is shorter than " + INITIAL_DELAY + " = " + initialDelay);
        }
        if (maxAttempts < 0) {
            throw new ConfigException(MAX_ATTEMPTS + " must be 0 (never give up) or more, got " + maxAttempts);
        }
    }

    /** The defaults: 1 s doubling up to 1 min, give up after 10 restarts in a row, forget failures after 2 min up. */
    public static SupervisionPolicy defaults() {
        return new SupervisionPolicy(
                DEFAULT_INITIAL_DELAY, DEFAULT_MAX_DELAY, DEFAULT_MAX_ATTEMPTS, DEFAULT_STABLE_AFTER);
    }

    public static SupervisionPolicy from(ConfigSource configuration) {
        return new SupervisionPolicy(
                configuration.duration(INITIAL_DELAY, DEFAULT_INITIAL_DELAY),
                configuration.duration(MAX_DELAY, DEFAULT_MAX_DELAY),
                configuration.integer(MAX_ATTEMPTS, DEFAULT_MAX_ATTEMPTS),
                configuration.duration(STABLE_AFTER, DEFAULT_STABLE_AFTER));
    }

    /** The wait before the restart that follows the {@code failure}-th failure in a row (1 for the first). */
    public Duration delayBefore(int failure) {
        if (failure < 1) {
            throw new IllegalArgumentException("failure counts from 1, got " + failure);
        }
        // Doubling from the initial delay; the shift is bounded so that it cannot overflow.
        long millis = initialDelay.toMillis() << Math.min(failure - 1, 30);
        return millis >= maxDelay.toMillis() || millis <= 0 ? maxDelay : Duration.ofMillis(millis);
    }

    /** True when the supervisor gives up instead of restarting after the {@code failure}-th failure in a row. */
    public boolean givesUpAt(int failure) {
        return maxAttempts > 0 && failure > maxAttempts;
    }

    private static void requirePositive(String key, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new ConfigException(key + " must be positive, got " + value);
        }
    }
}
