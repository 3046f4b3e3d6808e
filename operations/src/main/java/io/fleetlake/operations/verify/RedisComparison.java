package io.fleetlake.operations.verify;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Whether Redis holds each vehicle's newest position: the event time in {@code vehicle:<id>} against the newest event
 * time of the vehicle in {@code fleet.positions}. Redis is written before Iceberg commits, so it may be ahead for a
 * checkpoint interval ({@code ahead}, not an error); behind or missing means an update was lost. A vehicle whose newest
 * position is older than the pipeline's vehicle TTL ({@code pipeline.redis-vehicle-ttl}) may have expired from Redis
 * on purpose: when Redis has no state for it, it counts as {@code expired}, not as missing. (The TTL runs from the
 * pipeline's write, which comes after the event time, so a vehicle with a newer position cannot have expired.)
 *
 * @param vehicles vehicles compared
 * @param matching Redis holds exactly the newest position
 * @param behind Redis holds an older position
 * @param missing Redis has no state for the vehicle, which cannot have expired
 * @param expired Redis has no state for a vehicle unseen for longer than the TTL: expired, not lost
 * @param ahead Redis holds a newer position than the table (not committed yet, or a row missing from the table)
 * @param samples some vehicles that did not match, with both times
 */
public record RedisComparison(
        long vehicles,
        long matching,
        long behind,
        long missing,
        long expired,
        long ahead,
        Duration vehicleTtl,
        List<String> samples) {
    public RedisComparison {
        requireNonNull(vehicleTtl, "vehicleTtl is null");
        samples = List.copyOf(requireNonNull(samples, "samples is null"));
    }

    /**
     * Compares per vehicle.
     *
     * @param newestInTable newest event time per vehicle in the table, in epoch microseconds
     * @param inRedis event time Redis holds per vehicle, in epoch milliseconds; empty when it has no state
     * @param now when Redis was read
     * @param vehicleTtl the pipeline's {@code pipeline.redis-vehicle-ttl}
     */
    public static RedisComparison compare(
            Map<String, Long> newestInTable,
            Map<String, Optional<Long>> inRedis,
            int sampleLimit,
            Instant now,
            Duration vehicleTtl) {
        long expiredBefore = now.minus(vehicleTtl).toEpochMilli();
        long matching = 0;
        long behind = 0;
        long missing = 0;
        long expired = 0;
        long ahead = 0;
        List<String> samples = new ArrayList<>();
        for (Map.Entry<String, Long> entry : new TreeMap<>(newestInTable).entrySet()) {
            String vehicle = entry.getKey();
            // Redis keeps milliseconds: compare at that precision.
            long tableMillis = Math.floorDiv(entry.getValue(), 1000L);
            Optional<Long> redisMillis = inRedis.getOrDefault(vehicle, Optional.empty());
            String finding;
            if (redisMillis.isEmpty() && tableMillis < expiredBefore) {
                expired++;
                continue;
            } else if (redisMillis.isEmpty()) {
                missing++;
                finding = "missing";
            } else if (redisMillis.get() == tableMillis) {
                matching++;
                continue;
            } else if (redisMillis.get() < tableMillis) {
                behind++;
                finding = "behind";
            } else {
                ahead++;
                finding = "ahead";
            }
            if (samples.size() < sampleLimit) {
                samples.add(vehicle + " " + finding + ": Redis "
                        + redisMillis
                                .map(millis -> Instant.ofEpochMilli(millis).toString())
                                .orElse("none")
                        + ", fleet.positions " + Instant.ofEpochMilli(tableMillis));
            }
        }
        return new RedisComparison(
                newestInTable.size(), matching, behind, missing, expired, ahead, vehicleTtl, samples);
    }

    /** Redis is neither behind nor missing a vehicle. */
    public boolean clean() {
        return behind == 0 && missing == 0;
    }
}
