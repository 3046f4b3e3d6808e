package io.fleetlake.simulator;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Position;
import io.fleetlake.simulator.model.Deviation;
import io.fleetlake.simulator.model.Device;
import io.fleetlake.simulator.model.FleetModel;
import io.fleetlake.simulator.model.GarageOutage;
import io.fleetlake.simulator.model.Vehicle;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives the {@link FleetModel} in real time and publishes every vehicle's fixes: one per vehicle per fix interval,
 * spread evenly over the interval, capped at the configured rate, with event time = now. Each vehicle's {@link Device}
 * decides what is sent: nothing during a garage outage, the buffered fixes (original event times) at once after it,
 * a far-off fix after a GPS glitch. Runs for the configured duration or until {@link #stop()}, logs progress every 5
 * seconds, then waits for outstanding acknowledgements and returns a {@link SimulationSummary}.
 *
 * <p>Tests and operators can {@link #triggerGarageOutage(String) send a named vehicle into a garage} or {@link
 * #triggerDeviation(String) make it deviate} now, on top of the seeded incidents.
 *
 * <p>A simulator runs once, either in the caller's thread ({@link #run()}) or in its own ({@link #start()}). The
 * publisher is the caller's: connect it before and close it after. The model's epoch is the start of the current UTC
 * day, so a simulator restarted on the same day continues the same journeys instead of teleporting vehicles home.
 */
public final class FleetSimulator implements AutoCloseable {
    /** How long a triggered detour lasts: long enough for several fixes far off the path. */
    public static final Duration TRIGGERED_DEVIATION = Duration.ofMinutes(6);
    /** How far off the path a triggered detour goes: the longest seeded detour. */
    public static final double TRIGGERED_DEVIATION_METERS = 800;

    private static final Logger LOG = LoggerFactory.getLogger(FleetSimulator.class);
    private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(5);
    /** How long {@link #close()} waits beyond the close timeout for a background run to end. */
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(5);

    private final FleetSimulatorConfig config;
    private final PositionPublisher publisher;
    private final Clock clock;
    private final FleetModel model;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final AtomicBoolean started = new AtomicBoolean();
    private final Object publishingLock = new Object();
    private Thread publishingThread;
    private volatile CompletableFuture<SimulationSummary> background;

    public FleetSimulator(FleetSimulatorConfig config, PositionPublisher publisher) {
        this(config, publisher, Clock.systemUTC());
    }

    FleetSimulator(FleetSimulatorConfig config, PositionPublisher publisher, Clock clock) {
        this.config = requireNonNull(config, "config is null");
        this.publisher = requireNonNull(publisher, "publisher is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.model = new FleetModel(
                config.seed(),
                config.vehicles(),
                config.jsonShare(),
                config.patterns(),
                FleetModel.startOfDay(clock.instant()));
    }

    /** The fleet being simulated, for example to look up a vehicle's route. */
    public FleetModel model() {
        return model;
    }

    /**
     * Sends a vehicle into a garage now, for {@link FleetSimulatorConfig#garageDuration()}: its device publishes
     * nothing until the outage ends, then its buffered fixes (one every {@link
     * FleetSimulatorConfig#garageFixInterval()}, with their original event times) all at once. Works before and
     * during a run, from any thread; adds to the seeded outages.
     *
     * @throws IllegalArgumentException when the vehicle is not part of the fleet
     */
    public GarageOutage triggerGarageOutage(String vehicleId) {
        return triggerGarageOutage(vehicleId, config.garageDuration());
    }

    /** As {@link #triggerGarageOutage(String)}, for a given time. */
    public GarageOutage triggerGarageOutage(String vehicleId, Duration duration) {
        GarageOutage outage = model.scheduleGarageOutage(vehicle(vehicleId), clock.instant(), duration);
        LOG.info("Garage outage of {} from {} to {}", vehicleId, outage.start(), outage.end());
        return outage;
    }

    /**
     * Makes a vehicle leave its planned path now: it drives {@value #TRIGGERED_DEVIATION_METERS} m off the path
     * (reached after a third of the time, held for a third, then back) for {@link #TRIGGERED_DEVIATION}, and rejoins
     * the path where its plan has it then. The planned route does not change. Works before and during a run, from
     * any thread; adds to the seeded detours.
     *
     * @throws IllegalArgumentException when the vehicle is not part of the fleet
     */
    public Deviation triggerDeviation(String vehicleId) {
        return triggerDeviation(vehicleId, TRIGGERED_DEVIATION, TRIGGERED_DEVIATION_METERS);
    }

    /** As {@link #triggerDeviation(String)}, for a given time and distance off the path (up to 2000 m). */
    public Deviation triggerDeviation(String vehicleId, Duration duration, double offsetMeters) {
        Deviation deviation = model.scheduleDeviation(vehicle(vehicleId), clock.instant(), duration, offsetMeters);
        LOG.info(
                "Deviation of {} from {} to {}, up to {} m off its path",
                vehicleId,
                deviation.start(),
                deviation.end(),
                Math.round(offsetMeters));
        return deviation;
    }

    /**
     * Publishes in the calling thread until the duration has passed or {@link #stop()} is called, then waits up to the
     * close timeout for acknowledgements.
     *
     * @throws InterruptedException when the calling thread is interrupted by someone other than {@link #stop()}
     */
    public SimulationSummary run() throws InterruptedException {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("This fleet simulator has already run; create a new one");
        }
        return execute();
    }

    /** Runs in a new thread named {@code fleet-simulator}; the future completes with the summary. */
    public CompletableFuture<SimulationSummary> start() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("This fleet simulator has already run; create a new one");
        }
        CompletableFuture<SimulationSummary> result = new CompletableFuture<>();
        background = result;
        Thread thread = new Thread(
                () -> {
                    try {
                        result.complete(execute());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        result.completeExceptionally(e);
                    } catch (RuntimeException e) {
                        LOG.error("Fleet simulator failed", e);
                        result.completeExceptionally(e);
                    }
                },
                "fleet-simulator");
        thread.start();
        return result;
    }

    /** Asks a running simulation to finish now; it still waits for acknowledgements. Safe from any thread. */
    public void stop() {
        stopRequested.countDown();
        synchronized (publishingLock) {
            if (publishingThread != null) {
                // Wakes the publishing thread if it waits for room among the unacknowledged messages.
                publishingThread.interrupt();
            }
        }
    }

    /** Stops the simulation and, when it was started with {@link #start()}, waits for it to finish. */
    @Override
    public void close() {
        stop();
        CompletableFuture<SimulationSummary> running = background;
        if (running == null) {
            return;
        }
        Duration wait = config.closeTimeout().plus(CLOSE_GRACE);
        try {
            running.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            LOG.debug("The background simulation had failed; the failure was reported by its thread", e);
        } catch (TimeoutException e) {
            LOG.warn("The fleet simulator did not finish within {} of being stopped", wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("Interrupted while waiting for the fleet simulator to finish");
        }
    }

    private SimulationSummary execute() throws InterruptedException {
        planJourneys();
        PublishCounts before = publisher.counts();
        long startNanos = System.nanoTime();
        LOG.info(
                "Simulating {} vehicles (seed {}), one fix every {} per vehicle, {} messages/s, {}",
                config.vehicles(),
                config.seed(),
                config.fixInterval(),
                String.format(Locale.ROOT, "%.1f", config.effectiveRate()),
                config.bounded() ? "for " + config.duration() : "until stopped");
        synchronized (publishingLock) {
            publishingThread = Thread.currentThread();
        }
        try {
            publishUntilDone(startNanos, before);
        } catch (InterruptedException e) {
            // When stop() was called, the interrupt is its wake-up call and this is the normal end of the run.
            if (stopRequested.getCount() > 0) {
                throw e;
            }
            LOG.debug("Stopped while waiting for room among the unacknowledged messages");
        } finally {
            synchronized (publishingLock) {
                publishingThread = null;
            }
            if (stopRequested.getCount() == 0) {
                // Clears an interrupt that stop() sent while the thread was not waiting.
                Thread.interrupted();
            }
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - startNanos);
        if (!publisher.awaitAcknowledgements(config.closeTimeout())) {
            LOG.warn("Some messages were still unacknowledged {} after publishing ended", config.closeTimeout());
        }
        PublishCounts counts = publisher.counts().since(before);
        SimulationSummary summary = new SimulationSummary(
                counts.published(), counts.acknowledged(), counts.failed(), config.vehicles(), elapsed);
        LOG.info(
                "Fleet simulator finished after {}: published {}, acknowledged {}, failed {}, {} messages/s",
                elapsed,
                summary.published(),
                summary.acknowledged(),
                summary.failed(),
                String.format(Locale.ROOT, "%.1f", summary.publishRate()));
        return summary;
    }

    /**
     * Plans every vehicle's trips from the epoch up to now before the clock starts: done lazily inside the publishing
     * loop, it would stall the first fixes (about half a millisecond per vehicle late in the day).
     */
    private void planJourneys() {
        long start = System.nanoTime();
        Instant now = clock.instant();
        model.vehicles().forEach(vehicle -> model.state(vehicle, now));
        LOG.info(
                "Planned the journeys of {} vehicles since {} in {} ms",
                model.vehicles().size(),
                model.epoch(),
                (System.nanoTime() - start) / 1_000_000);
    }

    private void publishUntilDone(long startNanos, PublishCounts before) throws InterruptedException {
        List<Vehicle> vehicles = model.vehicles();
        Instant lastFix = clock.instant();
        Device[] devices = new Device[vehicles.size()];
        for (Vehicle vehicle : vehicles) {
            devices[vehicle.index()] = model.device(vehicle, lastFix);
        }
        FixSchedule schedule = new FixSchedule(vehicles.size(), config.fixInterval());
        RateLimiter limiter = RateLimiter.forRate(config.rate());
        long durationNanos = config.duration().toNanos();
        Progress progress = new Progress(startNanos, before);
        for (long sequence = 0; stopRequested.getCount() > 0; sequence++) {
            long granted = limiter.grant(startNanos + schedule.dueNanos(sequence), System.nanoTime());
            if (config.bounded() && granted - startNanos >= durationNanos) {
                return;
            }
            if (!waitUntil(granted, progress)) {
                return;
            }
            Vehicle vehicle = vehicles.get(schedule.vehicleIndex(sequence));
            // Devices take their fixes in time order, also when time synchronisation steps the wall clock back.
            Instant now = clock.instant();
            lastFix = now.isAfter(lastFix) ? now : lastFix;
            // After a garage outage the buffer goes out at once, as fast as the in-flight window allows.
            for (Position position : devices[vehicle.index()].fix(lastFix)) {
                publisher.publish(position, vehicle.payloadFormat(), vehicle.schemaVersion());
            }
        }
    }

    private Vehicle vehicle(String vehicleId) {
        return model.vehicle(vehicleId)
                .orElseThrow(() -> new IllegalArgumentException("Vehicle " + vehicleId
                        + " is not part of the simulated fleet of " + config.vehicles() + " vehicles ("
                        + Vehicle.idOf(0) + " to " + Vehicle.idOf(config.vehicles() - 1) + ")"));
    }

    /** Waits without spinning until a time on the {@link System#nanoTime()} clock; false when stopped first. */
    private boolean waitUntil(long deadlineNanos, Progress progress) throws InterruptedException {
        while (true) {
            long now = System.nanoTime();
            progress.logWhenDue(now);
            long remaining = deadlineNanos - now;
            if (remaining <= 0) {
                return stopRequested.getCount() > 0;
            }
            if (stopRequested.await(Math.min(remaining, progress.nanosUntilDue(now)), TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
    }

    /** Logs counts and the recent publish rate every {@link #PROGRESS_INTERVAL}. */
    private final class Progress {
        private final PublishCounts baseline;
        private long dueNanos;
        private long lastNanos;
        private long lastPublished;

        Progress(long startNanos, PublishCounts baseline) {
            this.baseline = baseline;
            this.lastNanos = startNanos;
            this.dueNanos = startNanos + PROGRESS_INTERVAL.toNanos();
        }

        long nanosUntilDue(long now) {
            return Math.max(1, dueNanos - now);
        }

        void logWhenDue(long now) {
            if (now - dueNanos < 0) {
                return;
            }
            PublishCounts counts = publisher.counts().since(baseline);
            double rate = (counts.published() - lastPublished) / ((now - lastNanos) / 1e9);
            LOG.info(
                    "Published {}, acknowledged {}, failed {}, in flight {}; {} messages/s",
                    counts.published(),
                    counts.acknowledged(),
                    counts.failed(),
                    counts.inFlight(),
                    String.format(Locale.ROOT, "%.1f", rate));
            lastPublished = counts.published();
            lastNanos = now;
            dueNanos += PROGRESS_INTERVAL.toNanos();
            if (dueNanos - now <= 0) {
                dueNanos = now + PROGRESS_INTERVAL.toNanos();
            }
        }
    }
}
