package io.fleetlake.bench.phase;

import static java.util.Objects.requireNonNull;

import io.fleetlake.bench.BenchConsole;
import io.fleetlake.bench.BenchStack;
import io.fleetlake.bench.observe.RedisState;
import io.fleetlake.bench.observe.RedisState.VehicleStamp;
import io.fleetlake.bench.observe.TrinoPollingConnection.Snapshot;
import io.fleetlake.model.Tables;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Watches the pipeline drain a {@link Backlog}: every 100 ms the Redis state of a sample of the backlog's vehicles
 * (how far each vehicle has come tells how much of the backlog has been processed), every 2 s the newest Iceberg
 * snapshot of {@code fleet.positions} (a Trino query: polled no faster, so that it takes little CPU from the pipeline;
 * the snapshot that made the last row visible is then looked up in the table's history, so the answer does not
 * depend on the poll interval), and every second, once nearly done, the Redis state of every vehicle.
 */
final class DrainMonitor {
    private static final Duration SAMPLE_INTERVAL = Duration.ofMillis(100);
    private static final int SNAPSHOT_EVERY = 20;
    private static final int REDIS_COMPLETE_EVERY = 10;
    private static final int SAMPLED_VEHICLES = 64;
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);

    private final BenchStack stack;
    private final BenchConsole console;

    DrainMonitor(BenchStack stack, BenchConsole console) {
        this.stack = requireNonNull(stack, "stack is null");
        this.console = requireNonNull(console, "console is null");
    }

    /**
     * Waits until {@code fleet.positions} holds {@code targetRows} rows and Redis holds the newest fix of every vehicle
     * of the backlog.
     *
     * @throws TimeoutException when that does not happen within the timeout, saying how far it came
     */
    Drain await(Backlog backlog, long targetRows, Duration timeout)
            throws InterruptedException, SQLException, TimeoutException {
        List<Integer> sample = sample(backlog);
        List<String> sampleIds = sample.stream()
                .map(index -> backlog.vehicles().get(index).vehicleId())
                .toList();
        List<Integer> all = new ArrayList<>();
        for (int index = 0; index < backlog.vehicles().size(); index++) {
            if (backlog.fixesOf(index) > 0) {
                all.add(index);
            }
        }
        List<String> allIds = all.stream()
                .map(index -> backlog.vehicles().get(index).vehicleId())
                .toList();
        Instant deadline = Instant.now().plus(timeout);
        Optional<Instant> firstRecord = Optional.empty();
        List<ProgressPoint> progress = new ArrayList<>();
        Optional<Snapshot> committed = Optional.empty();
        Optional<Instant> lastBelow = Optional.empty();
        Optional<Instant> redisComplete = Optional.empty();
        long icebergRows = 0;
        Instant nextReport = Instant.now().plus(PROGRESS_EVERY);
        try (RedisState redis = new RedisState(stack.redisUri())) {
            for (int iteration = 0; ; iteration++) {
                Instant now = Instant.now();
                double share = share(backlog, sample, redis.stamps(sampleIds));
                if (share > 0) {
                    firstRecord = firstRecord.or(() -> Optional.of(now));
                    progress.add(new ProgressPoint(now, share));
                }
                if (iteration % SNAPSHOT_EVERY == 0 && committed.isEmpty()) {
                    Optional<Snapshot> latest = stack.trino().latestSnapshot(Tables.POSITIONS);
                    icebergRows = latest.map(Snapshot::totalRecords).orElse(0L);
                    if (icebergRows >= targetRows) {
                        committed = CommitWait.firstHolding(stack, Tables.POSITIONS, targetRows, lastBelow)
                                .or(() -> latest);
                    } else {
                        lastBelow =
                                Optional.of(latest.map(Snapshot::committedAt).orElse(Instant.EPOCH));
                    }
                }
                if (iteration % REDIS_COMPLETE_EVERY == 0
                        && redisComplete.isEmpty()
                        && (share >= 0.99 || committed.isPresent())
                        && complete(backlog, all, redis.stamps(allIds))) {
                    redisComplete = Optional.of(now);
                }
                if (committed.isPresent() && redisComplete.isPresent()) {
                    return new Drain(firstRecord.orElseThrow(), committed.get(), redisComplete.get(), progress);
                }
                if (now.isAfter(nextReport)) {
                    console.progress(
                            "  processed ~%.0f %% (Redis sample of %d vehicles), Iceberg rows %,d of %,d",
                            share * 100, sample.size(), icebergRows, targetRows);
                    nextReport = now.plus(PROGRESS_EVERY);
                }
                if (now.isAfter(deadline)) {
                    throw new TimeoutException(String.format(
                            "after %d s the pipeline had processed ~%.0f %% of the backlog (Redis sample) and Iceberg"
                                    + " held %,d of %,d rows",
                            timeout.toSeconds(), share * 100, icebergRows, targetRows));
                }
                TimeUnit.MILLISECONDS.sleep(SAMPLE_INTERVAL.toMillis());
            }
        }
    }

    private static List<Integer> sample(Backlog backlog) {
        List<Integer> sample = new ArrayList<>();
        int vehicles = backlog.vehicles().size();
        int step = Math.max(1, vehicles / SAMPLED_VEHICLES);
        for (int index = 0; index < vehicles && sample.size() < SAMPLED_VEHICLES; index += step) {
            if (backlog.fixesOf(index) > 0) {
                sample.add(index);
            }
        }
        return sample;
    }

    private static double share(Backlog backlog, List<Integer> sample, List<Optional<VehicleStamp>> stamps) {
        double total = 0;
        for (int position = 0; position < sample.size(); position++) {
            Optional<VehicleStamp> stamp = stamps.get(position);
            if (stamp.isPresent()) {
                total +=
                        backlog.shareProcessed(sample.get(position), stamp.get().eventTime());
            }
        }
        return total / sample.size();
    }

    private static boolean complete(Backlog backlog, List<Integer> vehicles, List<Optional<VehicleStamp>> stamps) {
        for (int position = 0; position < vehicles.size(); position++) {
            Optional<VehicleStamp> stamp = stamps.get(position);
            if (stamp.isEmpty() || stamp.get().eventTime() < backlog.lastEventTime(vehicles.get(position))) {
                return false;
            }
        }
        return true;
    }

    /** The estimated share of the backlog processed at a time. */
    record ProgressPoint(Instant time, double share) {}

    /**
     * How a drain went.
     *
     * @param firstRecord when Redis first showed a record of the backlog (the sample is polled every 100 ms)
     * @param committed the snapshot that made the last row visible in Iceberg
     * @param redisComplete when Redis was seen to hold the newest fix of every vehicle (polled every second)
     * @param progress the estimated share processed over time
     */
    record Drain(Instant firstRecord, Snapshot committed, Instant redisComplete, List<ProgressPoint> progress) {
        Drain {
            requireNonNull(firstRecord, "firstRecord is null");
            requireNonNull(committed, "committed is null");
            requireNonNull(redisComplete, "redisComplete is null");
            progress = List.copyOf(requireNonNull(progress, "progress is null"));
        }

        Instant end() {
            return committed.committedAt().isAfter(redisComplete) ? committed.committedAt() : redisComplete;
        }

        /** Records per second from the first record to all of them committed in Iceberg and current in Redis. */
        double drainRate(long records) {
            return records / seconds(firstRecord, end());
        }

        /**
         * Records per second between the first moments 10 % and 90 % of the backlog had been processed, or empty when
         * the samples do not span that window.
         */
        Optional<Double> steadyRate(long records) {
            return rateBetween(0.1, 0.9, records);
        }

        /**
         * Records per second between the first moments the shares {@code from} and {@code to} of the backlog had been
         * processed (by the samples: the share each reached), or empty when the samples do not span that window. A
         * {@code from} of 0 starts at the first sample, a {@code to} of 1 ends at the first sample that saw all.
         */
        Optional<Double> rateBetween(double from, double to, long records) {
            Optional<ProgressPoint> start = firstReaching(from);
            Optional<ProgressPoint> end = firstReaching(to);
            if (start.isEmpty()
                    || end.isEmpty()
                    || !end.get().time().isAfter(start.get().time())) {
                return Optional.empty();
            }
            return Optional.of((end.get().share() - start.get().share())
                    * records
                    / seconds(start.get().time(), end.get().time()));
        }

        /**
         * The rate in each tenth of the backlog (0-10 %, 10-20 %, ... 90-100 %), so that a slowdown as the pipeline's
         * state grows shows; a tenth the 100 ms samples did not resolve is empty.
         */
        List<Optional<Double>> tenthRates(long records) {
            List<Optional<Double>> rates = new ArrayList<>();
            for (int tenth = 0; tenth < 10; tenth++) {
                rates.add(rateBetween(tenth / 10.0, (tenth + 1) / 10.0, records));
            }
            return rates;
        }

        /** Seconds from the first record to the first sample that reached a share, if one did. */
        Optional<Double> secondsTo(double share) {
            return firstReaching(share).map(point -> seconds(firstRecord, point.time()));
        }

        private Optional<ProgressPoint> firstReaching(double share) {
            // Shares are rounded to whole fixes per vehicle; a tiny tolerance keeps 0.3 reached at 0.29999999.
            return progress.stream()
                    .filter(point -> point.share() >= share - 1e-9)
                    .findFirst();
        }

        static double seconds(Instant from, Instant to) {
            return Math.max(1e-3, Duration.between(from, to).toNanos() / 1e9);
        }
    }
}
