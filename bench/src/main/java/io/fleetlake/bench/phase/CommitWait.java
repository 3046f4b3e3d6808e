package io.fleetlake.bench.phase;

import io.fleetlake.bench.BenchConsole;
import io.fleetlake.bench.BenchStack;
import io.fleetlake.bench.observe.TrinoPollingConnection.Snapshot;
import io.fleetlake.model.Tables;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for an Iceberg table to hold a number of rows, by its newest snapshot's total (metadata only), then finds the
 * first snapshot that held them. Every poll is a Trino query (and a catalog load): polled every 2 s, not faster, so
 * that the wait costs the measured system little CPU; the answer does not depend on the poll interval, because the
 * snapshot that made the rows visible is looked up in the table's history.
 */
final class CommitWait {
    static final Duration POLL_INTERVAL = Duration.ofSeconds(2);

    private CommitWait() {}

    /**
     * @return the first snapshot that holds at least {@code target} rows: the first in the table's history after the
     *     last one a poll saw with fewer, or the one the first poll saw when that already held them
     */
    static Snapshot awaitTotal(BenchStack stack, BenchConsole console, String table, long target, Duration timeout)
            throws InterruptedException, SQLException, TimeoutException {
        Instant deadline = Instant.now().plus(timeout);
        Instant nextReport = Instant.now().plusSeconds(5);
        Optional<Instant> lastBelow = Optional.empty();
        while (true) {
            Optional<Snapshot> latest = stack.trino().latestSnapshot(table);
            long rows = latest.map(Snapshot::totalRecords).orElse(0L);
            if (rows >= target) {
                return firstHolding(stack, table, target, lastBelow).orElse(latest.orElseThrow());
            }
            lastBelow = Optional.of(latest.map(Snapshot::committedAt).orElse(Instant.EPOCH));
            if (Instant.now().isAfter(nextReport)) {
                console.progress("  %s holds %,d of %,d rows", Tables.qualified(table), rows, target);
                nextReport = Instant.now().plusSeconds(5);
            }
            if (Instant.now().isAfter(deadline)) {
                throw new TimeoutException(String.format(
                        Locale.ROOT,
                        "%s held %,d of %,d rows after %d s",
                        Tables.qualified(table),
                        rows,
                        target,
                        timeout.toSeconds()));
            }
            TimeUnit.MILLISECONDS.sleep(POLL_INTERVAL.toMillis());
        }
    }

    /**
     * The first snapshot that holds {@code target} rows committed after {@code lastBelow}, the commit time of the
     * newest snapshot a poll saw with fewer rows ({@link Instant#EPOCH} when the table had none); empty when no poll
     * saw fewer rows (then nothing bounds the search) or the history does not have it.
     */
    static Optional<Snapshot> firstHolding(BenchStack stack, String table, long target, Optional<Instant> lastBelow)
            throws SQLException {
        if (lastBelow.isEmpty()) {
            return Optional.empty();
        }
        return stack.trino().firstSnapshotHolding(table, target, lastBelow.get());
    }

    static long total(BenchStack stack, String table) throws SQLException {
        return stack.trino().latestSnapshot(table).map(Snapshot::totalRecords).orElse(0L);
    }
}
