package io.fleetlake.stack.cli;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Tables;
import io.fleetlake.operations.inspect.TrinoInspector;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Waits until the pipeline has committed what it received: the row count of {@code fleet.positions} must stay the same
 * for two checkpoint intervals (Iceberg commits happen once per checkpoint).
 */
final class CommitWatcher {
    private static final Duration POLL_INTERVAL = Duration.ofSeconds(2);

    private final TrinoInspector trino;
    private final Duration quietPeriod;

    CommitWatcher(TrinoInspector trino, Duration checkpointInterval) {
        this.trino = requireNonNull(trino, "trino is null");
        this.quietPeriod = checkpointInterval.multipliedBy(2).plusSeconds(2);
    }

    /** The settled row count, or the last one seen when the timeout passes first. */
    long awaitSettled(Duration timeout) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long rows = trino.rowCount(Tables.POSITIONS);
        long unchangedSince = System.nanoTime();
        System.out.printf("Waiting for the pipeline's Iceberg commits to settle (rows now: %,d) ...%n", rows);
        while (System.nanoTime() - unchangedSince < quietPeriod.toNanos() || rows == 0) {
            if (System.nanoTime() > deadline) {
                System.out.printf("Gave up waiting after %s; rows: %,d%n", timeout, rows);
                return rows;
            }
            TimeUnit.MILLISECONDS.sleep(POLL_INTERVAL.toMillis());
            long current = trino.rowCount(Tables.POSITIONS);
            if (current != rows) {
                System.out.printf("  rows in Iceberg: %,d%n", current);
                rows = current;
                unchangedSince = System.nanoTime();
            }
        }
        return rows;
    }
}
