package io.fleetlake.flink.sinks;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.records.EnrichedPosition;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Batches current-state updates and applies them with newer-event-time-wins semantics. A batch keeps only the newest
 * update per vehicle, and is sent when it holds {@code batchSize} vehicles, when {@code flushInterval} has passed since
 * its first update (a processing-time timer, so that the dashboard stays fresh under low load), and on
 * {@link #flush(boolean)}, which Flink calls before every checkpoint barrier and at the end of input. A checkpoint
 * therefore only completes once every update before it is in the store.
 *
 * <p>All methods, including the timer callback, run in the task's mailbox thread, so no locking is needed.
 *
 * <p>A failed batch is retried with exponential backoff and a warning per attempt; when every attempt fails the
 * writer throws, which fails the task: Flink restarts from the last checkpoint and replays the updates, which is safe
 * because applying an update again changes nothing. No update is dropped silently.
 */
final class RedisCurrentStateWriter implements SinkWriter<EnrichedPosition> {
    private static final Logger LOG = LoggerFactory.getLogger(RedisCurrentStateWriter.class);

    private final CurrentStateStore store;
    private final ProcessingTimeService timeService;
    private final RedisCurrentStateSink.Settings settings;
    private final Sleeper sleeper;
    private final Counter updatesApplied;
    private final Counter updatesIgnored;
    private final Map<String, VehicleState> pending = new LinkedHashMap<>();
    private boolean timerRegistered;

    RedisCurrentStateWriter(
            CurrentStateStore store,
            ProcessingTimeService timeService,
            MetricGroup metrics,
            RedisCurrentStateSink.Settings settings,
            Sleeper sleeper) {
        this.store = requireNonNull(store, "store is null");
        this.timeService = requireNonNull(timeService, "timeService is null");
        this.settings = requireNonNull(settings, "settings is null");
        this.sleeper = requireNonNull(sleeper, "sleeper is null");
        this.updatesApplied = metrics.counter("redisUpdatesApplied");
        this.updatesIgnored = metrics.counter("redisUpdatesIgnored");
    }

    @Override
    public void write(EnrichedPosition element, Context context) throws IOException, InterruptedException {
        VehicleState update = VehicleState.of(element);
        pending.merge(update.vehicleId(), update, (queued, next) -> next.isNewerThan(queued) ? next : queued);
        if (pending.size() >= settings.batchSize()) {
            flushPending();
        } else if (!timerRegistered) {
            timerRegistered = true;
            timeService.registerTimer(
                    timeService.getCurrentProcessingTime()
                            + settings.flushInterval().toMillis(),
                    this::onTimer);
        }
    }

    @Override
    public void flush(boolean endOfInput) throws IOException, InterruptedException {
        flushPending();
    }

    @Override
    public void close() {
        // Updates still pending here were never confirmed by a checkpoint; the restarted job replays them.
        store.close();
    }

    private void onTimer(long time) throws IOException, InterruptedException {
        timerRegistered = false;
        flushPending();
    }

    private void flushPending() throws IOException, InterruptedException {
        if (pending.isEmpty()) {
            return;
        }
        List<VehicleState> batch = new ArrayList<>(pending.values());
        List<Boolean> applied = applyWithRetries(batch);
        pending.clear();
        long appliedCount = applied.stream().filter(Boolean::booleanValue).count();
        updatesApplied.inc(appliedCount);
        updatesIgnored.inc(batch.size() - appliedCount);
    }

    private List<Boolean> applyWithRetries(List<VehicleState> batch) throws IOException, InterruptedException {
        Duration backoff = settings.initialBackoff();
        for (int attempt = 1; ; attempt++) {
            try {
                return store.applyNewerWins(batch, Instant.ofEpochMilli(timeService.getCurrentProcessingTime()));
            } catch (CurrentStateStoreException e) {
                if (attempt >= settings.maxAttempts()) {
                    throw new IOException(
                            "Cannot write the current state of " + batch.size() + " vehicles to Redis after "
                                    + attempt + " attempts; failing the task so that it restarts from the last"
                                    + " checkpoint and replays these updates",
                            e);
                }
                LOG.warn(
                        "Writing the current state of {} vehicles to Redis failed (attempt {} of {}); retrying in {}"
                                + " ms: {}",
                        batch.size(),
                        attempt,
                        settings.maxAttempts(),
                        backoff.toMillis(),
                        e.getMessage());
                sleeper.sleep(backoff);
                backoff = min(backoff.multipliedBy(2), settings.maxBackoff());
            }
        }
    }

    private static Duration min(Duration first, Duration second) {
        return first.compareTo(second) <= 0 ? first : second;
    }

    /** Waits between attempts; a seam so that tests do not wait. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }
}
