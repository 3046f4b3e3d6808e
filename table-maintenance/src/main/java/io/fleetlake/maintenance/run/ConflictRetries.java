package io.fleetlake.maintenance.run;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a maintenance step again, planned from fresh metadata, when its commit lost against a concurrent commit. The
 * streaming writer never waits for maintenance and never has to retry more than Iceberg's own commit retries: a step
 * that keeps conflicting gives up after the configured attempts, and the next run tries again.
 */
final class ConflictRetries {
    private static final Logger LOG = LoggerFactory.getLogger(ConflictRetries.class);

    private final int attempts;
    private final Duration backoff;

    ConflictRetries(int attempts, Duration backoff) {
        this.attempts = attempts;
        this.backoff = backoff;
    }

    <T> T run(String step, Supplier<T> body) {
        for (int attempt = 1; ; attempt++) {
            try {
                return body.get();
            } catch (CommitStateUnknownException e) {
                // Whether it was applied is unknown: retrying could apply it twice. The next run plans afresh.
                throw e;
            } catch (CommitFailedException | ValidationException e) {
                if (attempt >= attempts) {
                    throw new IllegalStateException(
                            step + " conflicted with concurrent commits " + attempts + " times; the next run tries"
                                    + " again: " + e.getMessage(),
                            e);
                }
                LOG.warn(
                        "{} conflicted with a concurrent commit (attempt {} of {}), planning again: {}",
                        step,
                        attempt,
                        attempts,
                        e.getMessage());
                pause(backoff.multipliedBy(attempt));
            }
        }
    }

    private static void pause(Duration duration) {
        try {
            TimeUnit.MILLISECONDS.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting to retry", e);
        }
    }
}
