package io.fleetlake.flink.sinks;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.PipelineMetricNames;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies current-state updates with newer-event-time-wins semantics and rides out Redis outages.
 *
 * <p><b>Pending updates.</b> The writer keeps the newest pending update per vehicle (an older one never replaces a
 * newer one), so its memory is bounded by the fleet size, not by how long Redis is away. While Redis answers, the
 * pending updates are written when {@code batchSize} vehicles are pending, when {@code flushInterval} has passed since
 * the first of them (a processing-time timer, so that the dashboard stays fresh under low load), and on {@link
 * #flush(boolean)}, which Flink calls before every checkpoint barrier; each request carries at most {@code batchSize}
 * vehicles.
 *
 * <p><b>Outages.</b> A failed write never fails the task. It is counted ({@code redisWriteFailures}, one per failed
 * attempt), logged once when the outage starts and then every {@code outageReportInterval} with the number of pending
 * vehicles, and retried by a processing-time timer with exponential backoff ({@code initialBackoff} doubling up to
 * {@code maxBackoff}). During the outage only that timer writes: new updates merge into the pending map, and the flush
 * before a checkpoint barrier returns at once, so the checkpoint (and the Iceberg commit) is never held up by more than
 * one attempt bounded by {@code requestTimeout}, made when the outage is not known yet.
 *
 * <p><b>State.</b> {@link #snapshotState} returns the pending updates, so a failover or restart during an outage
 * restores them; they are written as soon as the restored writer runs. Together with the replay of the source after the
 * checkpoint this applies every update at least once; re-applying one is harmless (the store applies only strictly
 * newer event times). After rescaling, one vehicle's pending update may be restored in another subtask than its new
 * updates: the newer-wins rule of the store keeps the result right.
 *
 * <p><b>End of input.</b> No later attempt would come, and the state of a finished job is not restored: the final
 * flush writes every pending update or fails the task, so that a bounded job never ends with updates left unwritten.
 *
 * <p>All methods, including the timer callbacks, run in the task's mailbox thread, so no locking is needed.
 */
final class RedisCurrentStateWriter implements StatefulSinkWriter<VehicleState, VehicleState> {
    private static final Logger LOG = LoggerFactory.getLogger(RedisCurrentStateWriter.class);

    private final CurrentStateStore store;
    private final ProcessingTimeService timeService;
    private final RedisCurrentStateSink.Settings settings;
    private final Counter updatesApplied;
    private final Counter updatesIgnored;
    private final Counter writeFailures;
    private final Counter writes;
    private final Counter writeMillis;
    private long lastWriteMillis;
    private int lastBatchSize;
    private final Map<String, VehicleState> pending = new LinkedHashMap<>();
    private boolean flushTimerRegistered;
    private boolean retryTimerRegistered;
    /** The outage in progress, or null while Redis answers. */
    private Outage outage;

    RedisCurrentStateWriter(
            CurrentStateStore store,
            ProcessingTimeService timeService,
            MetricGroup metrics,
            RedisCurrentStateSink.Settings settings,
            Collection<VehicleState> recoveredState) {
        this.store = requireNonNull(store, "store is null");
        this.timeService = requireNonNull(timeService, "timeService is null");
        this.settings = requireNonNull(settings, "settings is null");
        requireNonNull(metrics, "metrics is null");
        requireNonNull(recoveredState, "recoveredState is null");
        this.updatesApplied = metrics.counter(PipelineMetricNames.REDIS_UPDATES_APPLIED);
        this.updatesIgnored = metrics.counter(PipelineMetricNames.REDIS_UPDATES_IGNORED);
        this.writeFailures = metrics.counter(PipelineMetricNames.REDIS_WRITE_FAILURES);
        metrics.gauge(PipelineMetricNames.REDIS_PENDING_VEHICLES, (Gauge<Integer>) pending::size);
        this.writes = metrics.counter(PipelineMetricNames.REDIS_WRITES);
        this.writeMillis = metrics.counter(PipelineMetricNames.REDIS_WRITE_MILLIS);
        metrics.gauge(PipelineMetricNames.REDIS_LAST_WRITE_MILLIS, (Gauge<Long>) () -> lastWriteMillis);
        metrics.gauge(PipelineMetricNames.REDIS_LAST_BATCH_SIZE, (Gauge<Integer>) () -> lastBatchSize);
        recoveredState.forEach(this::enqueue);
        if (!pending.isEmpty()) {
            LOG.info(
                    "Restored the current state of {} vehicles that was not written to Redis before the checkpoint;"
                            + " writing it now",
                    pending.size());
            registerFlushTimer();
        }
    }

    @Override
    public void write(VehicleState update, Context context) {
        enqueue(update);
        if (outage != null) {
            // The retry timer writes the pending updates once Redis answers again.
            return;
        }
        if (pending.size() >= settings.batchSize()) {
            writePending();
        } else {
            registerFlushTimer();
        }
    }

    /**
     * Before a checkpoint barrier: one attempt unless an outage is known, then returns; whatever is still pending goes
     * into the checkpoint through {@link #snapshotState}. At the end of input: writes everything or fails the task.
     */
    @Override
    public void flush(boolean endOfInput) throws IOException {
        if (endOfInput) {
            if (!writePending()) {
                throw new IOException("Redis is unavailable at the end of the input and the current state of "
                        + pending.size() + " vehicles is not written; failing the task so that it restarts from the"
                        + " last checkpoint and writes them again");
            }
            return;
        }
        if (outage == null) {
            writePending();
        }
    }

    @Override
    public List<VehicleState> snapshotState(long checkpointId) {
        LOG.debug("Checkpoint {} keeps the current state of {} vehicles not yet written", checkpointId, pending.size());
        return List.copyOf(pending.values());
    }

    @Override
    public void close() {
        // Pending updates are in the last checkpoint or are replayed from the source after it.
        store.close();
    }

    private void enqueue(VehicleState update) {
        pending.merge(update.vehicleId(), update, (queued, next) -> next.isNewerThan(queued) ? next : queued);
    }

    private void registerFlushTimer() {
        if (flushTimerRegistered) {
            return;
        }
        flushTimerRegistered = true;
        timeService.registerTimer(now() + settings.flushInterval().toMillis(), this::onFlushTimer);
    }

    private void onFlushTimer(long time) {
        flushTimerRegistered = false;
        if (outage == null) {
            writePending();
        }
    }

    private void onRetryTimer(long time) {
        retryTimerRegistered = false;
        writePending();
    }

    /**
     * Writes every pending update in requests of at most {@code batchSize} vehicles, stopping at the first failure;
     * the vehicles of every successful request leave the pending map.
     *
     * @return whether nothing is pending any more
     */
    private boolean writePending() {
        List<VehicleState> updates = new ArrayList<>(pending.values());
        for (int start = 0; start < updates.size(); start += settings.batchSize()) {
            List<VehicleState> batch = updates.subList(start, Math.min(start + settings.batchSize(), updates.size()));
            List<Boolean> applied;
            long started = System.nanoTime();
            try {
                applied = store.applyNewerWins(batch, Instant.ofEpochMilli(now()));
            } catch (CurrentStateStoreException e) {
                onFailure(e);
                return false;
            }
            recordWrite(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), batch.size());
            batch.forEach(update -> pending.remove(update.vehicleId()));
            long appliedCount = applied.stream().filter(Boolean::booleanValue).count();
            updatesApplied.inc(appliedCount);
            updatesIgnored.inc(batch.size() - appliedCount);
        }
        if (outage != null) {
            LOG.info(
                    "Redis is available again after {} ({} failed attempts); the current state of every pending"
                            + " vehicle is written",
                    Duration.ofMillis(now() - outage.startedAt),
                    outage.failedAttempts);
            outage = null;
        }
        return true;
    }

    /** Latency and batch size of a successful write request, for the metrics. */
    private void recordWrite(long millis, int batchSize) {
        writes.inc();
        writeMillis.inc(millis);
        lastWriteMillis = millis;
        lastBatchSize = batchSize;
    }

    private void onFailure(CurrentStateStoreException failure) {
        writeFailures.inc();
        long now = now();
        if (outage == null) {
            outage = new Outage(now, settings.initialBackoff());
            LOG.warn(
                    "Cannot write the current state to Redis; {} vehicles pending, retrying with backoff from {} up to"
                            + " {}. Checkpoints and Iceberg commits go on and keep the pending updates; the"
                            + " dashboard lags until Redis answers again: {}",
                    pending.size(),
                    settings.initialBackoff(),
                    settings.maxBackoff(),
                    failure.getMessage());
        } else {
            outage.failedAttempts++;
            outage.backoff = min(outage.backoff.multipliedBy(2), settings.maxBackoff());
            if (now - outage.reportedAt >= settings.outageReportInterval().toMillis()) {
                outage.reportedAt = now;
                LOG.warn(
                        "Redis is still unavailable after {} ({} failed attempts); {} vehicles pending, next attempt"
                                + " in {}: {}",
                        Duration.ofMillis(now - outage.startedAt),
                        outage.failedAttempts,
                        pending.size(),
                        outage.backoff,
                        failure.getMessage());
            }
        }
        if (!retryTimerRegistered) {
            retryTimerRegistered = true;
            timeService.registerTimer(now + outage.backoff.toMillis(), this::onRetryTimer);
        }
    }

    private long now() {
        return timeService.getCurrentProcessingTime();
    }

    private static Duration min(Duration first, Duration second) {
        return first.compareTo(second) <= 0 ? first : second;
    }

    /** Progress of one outage; mutable, confined to the mailbox thread like the writer. */
    private static final class Outage {
        private final long startedAt;
        private long reportedAt;
        private int failedAttempts = 1;
        private Duration backoff;

        private Outage(long startedAt, Duration backoff) {
            this.startedAt = startedAt;
            this.reportedAt = startedAt;
            this.backoff = backoff;
        }
    }
}
