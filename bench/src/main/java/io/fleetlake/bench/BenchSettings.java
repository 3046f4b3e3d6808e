package io.fleetlake.bench;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The parameters of one bench run, validated at construction. {@link #defaults} and {@link #quickDefaults} are the
 * sizes of a full run and of {@code --quick}; every value can be overridden on the command line. The full run's
 * backlogs are 300,000 records, not the 1,000,000 first chosen: the pipeline slows down as its de-duplication state
 * grows, and with 1,000,000 records per backlog a full run took 25 minutes on the development machine (2 cores).
 *
 * @param quick whether the quick sizes were the starting point
 * @param records size of the Kafka backlog of the throughput phase
 * @param fixInterval time between two fixes of one vehicle in the backlogs
 * @param vehicles vehicles of the simulated fleet (the planning API serves their routes)
 * @param mqttRecords positions published over MQTT in the MQTT phase
 * @param mqttPublishers MQTT clients publishing in parallel in the MQTT phase
 * @param rate offered MQTT rate of the latency phase, messages per second
 * @param duration how long the latency phase offers that rate, warm-up included
 * @param warmUp the first part of the latency run, excluded from its percentiles
 * @param historyFixes fixes of the vehicle-day of the time-travel phase
 * @param historyInterval time between two of those fixes
 * @param peer whether to run the Iceberg Kafka Connect sink side by side
 * @param peerPairs pipeline/sink measurement pairs, each on a backlog of its own
 * @param peerRecords size of the JSON backlog of each pair
 * @param profile whether to record the pipeline JVM with Java Flight Recorder during the throughput phase
 * @param checkpointInterval the pipeline's checkpoint interval, also the sink's commit interval
 * @param phaseTimeout the longest a phase waits for the pipeline before it reports a figure as not measured
 * @param idle how long the idle CPU of the stack is measured right after it started (after a short settling time);
 *     zero skips it
 * @param dataDirectory where the bench's stack keeps its data
 * @param jsonOut where the results are written as JSON
 * @param benchmarksMarkdown the BENCHMARKS.md the results are appended to; empty with {@code --no-append}
 */
public record BenchSettings(
        boolean quick,
        long records,
        Duration fixInterval,
        int vehicles,
        long mqttRecords,
        int mqttPublishers,
        double rate,
        Duration duration,
        Duration warmUp,
        int historyFixes,
        Duration historyInterval,
        boolean peer,
        int peerPairs,
        long peerRecords,
        boolean profile,
        Duration checkpointInterval,
        Duration phaseTimeout,
        Duration idle,
        Path dataDirectory,
        Path jsonOut,
        Optional<Path> benchmarksMarkdown) {
    public static final long DEFAULT_RECORDS = 300_000;
    public static final long QUICK_RECORDS = 50_000;
    /** Five minutes at the MQTT phase's offered 5,000 msg/s: the "sustained for 5 minutes". */
    public static final long DEFAULT_MQTT_RECORDS = 1_500_000;

    public static final long QUICK_MQTT_RECORDS = 20_000;
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(60);
    public static final Duration QUICK_DURATION = Duration.ofSeconds(20);
    public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofSeconds(10);
    public static final Duration QUICK_CHECKPOINT_INTERVAL = Duration.ofSeconds(5);
    public static final Duration DEFAULT_IDLE = Duration.ofSeconds(60);
    public static final Duration QUICK_IDLE = Duration.ofSeconds(20);
    /** The default phase timeout grows with a large backlog: the longest wait assumes at least this drain rate. */
    public static final long SLOWEST_EXPECTED_RATE = 2_000;

    public BenchSettings {
        requireNonNull(fixInterval, "fixInterval is null");
        requireNonNull(duration, "duration is null");
        requireNonNull(warmUp, "warmUp is null");
        requireNonNull(historyInterval, "historyInterval is null");
        requireNonNull(checkpointInterval, "checkpointInterval is null");
        requireNonNull(phaseTimeout, "phaseTimeout is null");
        requireNonNull(idle, "idle is null");
        requireNonNull(dataDirectory, "dataDirectory is null");
        requireNonNull(jsonOut, "jsonOut is null");
        requireNonNull(benchmarksMarkdown, "benchmarksMarkdown is null");
        require(records >= 1, "--records must be at least 1, got " + records);
        require(vehicles >= 1 && vehicles <= 100_000, "--vehicles must be between 1 and 100,000, got " + vehicles);
        require(fixInterval.toMillis() >= 1, "the fix interval must be at least 1 ms, got " + fixInterval);
        require(mqttRecords >= 1, "--mqtt-records must be at least 1, got " + mqttRecords);
        require(
                mqttPublishers >= 1 && mqttPublishers <= 64,
                "--mqtt-publishers must be 1 to 64, got " + mqttPublishers);
        require(rate > 0 && rate <= 100_000, "--rate must be above 0 and at most 100,000 msg/s, got " + rate);
        require(!warmUp.isNegative(), "the warm-up must not be negative, got " + warmUp);
        require(
                duration.compareTo(warmUp.plusSeconds(5)) >= 0,
                "--duration must be at least the " + warmUp.toSeconds() + " s warm-up + 5 s, got " + duration);
        require(historyFixes >= 2, "--history-fixes must be at least 2, got " + historyFixes);
        require(
                historyInterval.multipliedBy(historyFixes).compareTo(Duration.ofDays(1)) <= 0,
                "--history-fixes x the history interval must fit in one day, got " + historyFixes + " x "
                        + historyInterval);
        require(peerPairs >= 1 && peerPairs <= 10, "--peer-pairs must be 1 to 10, got " + peerPairs);
        require(peerRecords >= 1, "--peer-records must be at least 1, got " + peerRecords);
        require(
                checkpointInterval.toMillis() >= 1000,
                "--checkpoint-interval must be at least 1s, got " + checkpointInterval);
        require(phaseTimeout.toSeconds() >= 30, "--phase-timeout must be at least 30s, got " + phaseTimeout);
        require(idle.isZero() || idle.toSeconds() >= 10, "--idle must be 0s (skip) or at least 10s, got " + idle);
    }

    /**
     * The sizes of a full run.
     *
     * @param dataDirectory where the run's stack lives
     * @param benchmarksMarkdown the checkout's BENCHMARKS.md
     */
    public static BenchSettings defaults(Path dataDirectory, Path benchmarksMarkdown) {
        return new BenchSettings(
                false,
                DEFAULT_RECORDS,
                Duration.ofSeconds(1),
                2_000,
                DEFAULT_MQTT_RECORDS,
                4,
                2_000,
                DEFAULT_DURATION,
                Duration.ofSeconds(5),
                17_280,
                Duration.ofSeconds(5),
                true,
                1,
                DEFAULT_RECORDS,
                false,
                DEFAULT_CHECKPOINT_INTERVAL,
                Duration.ofMinutes(10),
                DEFAULT_IDLE,
                dataDirectory,
                dataDirectory.resolve("bench-results.json"),
                Optional.of(benchmarksMarkdown));
    }

    /** The sizes of {@code --quick}: a few minutes in all. */
    public static BenchSettings quickDefaults(Path dataDirectory, Path benchmarksMarkdown) {
        BenchSettings full = defaults(dataDirectory, benchmarksMarkdown);
        return new BenchSettings(
                true,
                QUICK_RECORDS,
                full.fixInterval(),
                full.vehicles(),
                QUICK_MQTT_RECORDS,
                full.mqttPublishers(),
                full.rate(),
                QUICK_DURATION,
                full.warmUp(),
                full.historyFixes(),
                full.historyInterval(),
                full.peer(),
                full.peerPairs(),
                QUICK_RECORDS,
                full.profile(),
                QUICK_CHECKPOINT_INTERVAL,
                Duration.ofMinutes(5),
                QUICK_IDLE,
                dataDirectory,
                full.jsonOut(),
                full.benchmarksMarkdown());
    }

    /** The parameters as printed in the results. */
    public Map<String, String> describe() {
        Map<String, String> description = new LinkedHashMap<>();
        description.put("mode", quick ? "quick" : "full");
        description.put("records", String.format(Locale.ROOT, "%,d", records));
        description.put("vehicles", String.format(Locale.ROOT, "%,d", vehicles));
        description.put("fix-interval", fixInterval.toMillis() + " ms");
        description.put("mqtt-records", String.format(Locale.ROOT, "%,d", mqttRecords));
        description.put("mqtt-publishers", Integer.toString(mqttPublishers));
        description.put("rate", String.format(Locale.ROOT, "%,.0f msg/s", rate));
        description.put("duration", duration.toSeconds() + " s (first " + warmUp.toSeconds() + " s warm-up)");
        description.put(
                "history-fixes",
                String.format(Locale.ROOT, "%,d every %d s", historyFixes, historyInterval.toSeconds()));
        description.put(
                "peer",
                peer
                        ? peerPairs + " pair(s) of " + String.format(Locale.ROOT, "%,d", peerRecords) + " records"
                        : "off");
        description.put("profile", Boolean.toString(profile));
        description.put("checkpoint-interval", checkpointInterval.toSeconds() + " s");
        description.put("idle", idle.isZero() ? "off" : idle.toSeconds() + " s");
        return description;
    }

    /**
     * The phase timeout to use when none was given: the mode's, or longer for a backlog that takes longer than that to
     * drain at {@link #SLOWEST_EXPECTED_RATE} (a 3,000,000-record run may take 25 minutes here).
     */
    public static Duration phaseTimeoutFor(Duration base, long records) {
        Duration drain = Duration.ofSeconds(records / SLOWEST_EXPECTED_RATE);
        return drain.compareTo(base) > 0 ? drain : base;
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
