package io.fleetlake.stack.supervision;

import static java.util.Objects.requireNonNull;

import io.fleetlake.operations.status.ComponentStatus;
import io.fleetlake.operations.status.ComponentStatus.State;
import io.fleetlake.stack.component.Component;
import io.fleetlake.stack.component.ComponentExit;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restarts components that end by themselves (a crash, {@code kill -9}, the OOM killer) while the stack runs, with
 * the backoff of a {@link SupervisionPolicy}, and counts the restarts.
 *
 * <p>A component is watched from the moment it is healthy ({@link #watch}) until it is {@link #release released};
 * the stack releases a component before every intentional stop, so that only an unexpected end is ever restarted.
 * A monitor thread asks every watched component for its {@link Component#exit() exit} twice a second; an exit starts
 * a restart on a thread of its own: wait the backoff, start the component, wait until it is healthy (at most the
 * stack's start timeout). Each step is logged with the exit code and the log file to read. A component that fails
 * {@link SupervisionPolicy#maxAttempts()} restarts in a row is given up on: logged as an error and shown as {@link
 * State#GAVE_UP}; the others keep running. Every change of a status is handed to the listener (the stack writes it to
 * its status file).
 */
public final class Supervisor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Supervisor.class);
    private static final Duration HEALTH_POLL_INTERVAL = Duration.ofMillis(250);

    private final SupervisionPolicy policy;
    private final Duration startTimeout;
    private final Consumer<List<ComponentStatus>> listener;
    private final Map<String, Watch> watches = new LinkedHashMap<>(); // guarded by itself
    private final ScheduledExecutorService monitor;
    private final ExecutorService restartThreads;
    private volatile boolean closed;

    /**
     * @param startTimeout how long a restarted component may take to become healthy
     * @param pollInterval how often the monitor looks for ended components
     * @param listener receives every status after a change; called from the supervisor's threads
     */
    public Supervisor(
            SupervisionPolicy policy,
            Duration startTimeout,
            Duration pollInterval,
            Consumer<List<ComponentStatus>> listener) {
        this.policy = requireNonNull(policy, "policy is null");
        this.startTimeout = requireNonNull(startTimeout, "startTimeout is null");
        requireNonNull(pollInterval, "pollInterval is null");
        this.listener = requireNonNull(listener, "listener is null");
        this.monitor = Executors.newSingleThreadScheduledExecutor(runnable -> daemon(runnable, "stack-supervisor"));
        this.restartThreads = Executors.newCachedThreadPool(runnable -> daemon(runnable, "stack-restart"));
        monitor.scheduleWithFixedDelay(
                this::checkAll, pollInterval.toMillis(), pollInterval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Watches a component that has just become healthy; a component watched before starts a new record. */
    public void watch(Component component) {
        requireNonNull(component, "component is null");
        if (closed) {
            return;
        }
        synchronized (watches) {
            Watch previous = watches.get(component.name());
            int restarted = previous == null ? 0 : previous.restarts;
            watches.put(component.name(), new Watch(component, restarted));
        }
        publish();
    }

    /**
     * Takes over a component that did not become healthy when the stack started and that the stack can run without:
     * it is shown as {@link State#STARTING} and started again with the policy's backoff, as a component that ended by
     * itself would be, until it is healthy (then {@link State#RUNNING}) or the policy gives up on it.
     *
     * @param failure why its start failed, shown as its last failure
     */
    public void retry(Component component, String failure) {
        requireNonNull(component, "component is null");
        requireNonNull(failure, "failure is null");
        if (closed) {
            return;
        }
        Watch watch = new Watch(component, 0);
        synchronized (watches) {
            watches.put(component.name(), watch);
        }
        watch.retryFailedStart(failure);
    }

    /**
     * Stops watching a component before it is stopped on purpose. A restart under way is cancelled: when it is
     * starting the component, the component is stopped (a start in progress is aborted) and this method returns only
     * once the restart has ended, so nothing starts the component again behind the caller's back.
     */
    public void release(String name) {
        Watch watch;
        synchronized (watches) {
            watch = watches.remove(name);
        }
        if (watch != null) {
            watch.cancel();
            publish();
        }
    }

    /** The status of every watched component, in the order they were first watched. */
    public List<ComponentStatus> statuses() {
        List<Watch> current;
        synchronized (watches) {
            current = new ArrayList<>(watches.values());
        }
        return current.stream().map(Watch::status).toList();
    }

    /** The status of one component; empty when it is not watched (never started, or stopped on purpose). */
    public Optional<ComponentStatus> status(String name) {
        Watch watch;
        synchronized (watches) {
            watch = watches.get(name);
        }
        return Optional.ofNullable(watch).map(Watch::status);
    }

    /** Stops watching every component and cancels restarts under way; the components themselves keep running. */
    @Override
    public void close() {
        closed = true;
        monitor.shutdownNow();
        List<Watch> current;
        synchronized (watches) {
            current = new ArrayList<>(watches.values());
            watches.clear();
        }
        current.forEach(Watch::cancel);
        restartThreads.shutdownNow();
    }

    private void checkAll() {
        List<Watch> current;
        synchronized (watches) {
            current = new ArrayList<>(watches.values());
        }
        boolean changed = false;
        for (Watch watch : current) {
            try {
                changed |= watch.check();
            } catch (RuntimeException e) {
                // One component's failing check must not end the monitor, which would stop supervising every other.
                LOG.error("Cannot check whether {} still runs", watch.component.name(), e);
            }
        }
        if (changed) {
            publish();
        }
    }

    private void publish() {
        try {
            listener.accept(statuses());
        } catch (RuntimeException e) {
            LOG.warn("Cannot record the components' status: {}", e.getMessage(), e);
        }
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }

    /** One watched component: its counters and the restart under way, if any. */
    private final class Watch {
        private final Component component;
        private final CountDownLatch cancelled = new CountDownLatch(1);

        // guarded by this
        private State state = State.RUNNING;
        private int restarts;
        private int failuresInARow;
        private OptionalInt lastExitCode = OptionalInt.empty();
        private Optional<String> lastFailure = Optional.empty();
        private Optional<Instant> lastFailureAt = Optional.empty();
        private long upSinceNanos = System.nanoTime();
        private Future<?> restart;

        Watch(Component component, int restarts) {
            this.component = component;
            this.restarts = restarts;
        }

        /** Starts a restart when the component has ended; forgets old failures once it has been up long enough. */
        synchronized boolean check() {
            if (state != State.RUNNING || cancelled.getCount() == 0) {
                return false;
            }
            Optional<ComponentExit> exit = component.exit();
            if (exit.isEmpty()) {
                if (failuresInARow > 0
                        && System.nanoTime() - upSinceNanos
                                >= policy.stableAfter().toNanos()) {
                    LOG.info(
                            "{} has stayed up for {} s; its {} earlier failure(s) are forgotten",
                            component.name(),
                            policy.stableAfter().toSeconds(),
                            failuresInARow);
                    failuresInARow = 0;
                    return true;
                }
                return false;
            }
            ComponentExit ended = exit.get();
            lastExitCode = OptionalInt.of(ended.exitCode());
            String where = ended.logFile().map(log -> "; read " + log).orElse("");
            recordFailure(ended.describe() + where);
            state = State.RESTARTING;
            restart = restartThreads.submit(this::restartLoop);
            return true;
        }

        /** Starts the restart loop for a component whose first start failed; see {@link Supervisor#retry}. */
        synchronized void retryFailedStart(String failure) {
            recordFailure(failure);
            state = State.STARTING;
            restart = restartThreads.submit(this::restartLoop);
        }

        private void restartLoop() {
            while (true) {
                Optional<Duration> delay = nextDelay();
                publish();
                if (delay.isEmpty() || awaitCancelled(delay.get())) {
                    return;
                }
                Optional<String> failed = startOnce();
                if (failed.isEmpty()) {
                    return;
                }
                synchronized (this) {
                    if (cancelled.getCount() == 0) {
                        return;
                    }
                    recordFailure(failed.get());
                }
            }
        }

        /** The wait before the next restart, logged; empty when the supervisor gives up on the component. */
        private synchronized Optional<Duration> nextDelay() {
            int failure = failuresInARow;
            if (policy.givesUpAt(failure)) {
                state = State.GAVE_UP;
                LOG.error(
                        "{} keeps dying: it failed {} times in a row, last with {}. The supervisor gives up on it"
                                + " ({} = {}); the rest of the stack keeps running. Fix the cause and start the stack"
                                + " again.",
                        component.name(),
                        failure,
                        lastFailure.orElse("an unknown failure"),
                        SupervisionPolicy.MAX_ATTEMPTS,
                        policy.maxAttempts());
                return Optional.empty();
            }
            Duration delay = policy.delayBefore(failure);
            LOG.warn(
                    state == State.STARTING
                            ? "{} is not healthy since the stack started: {}. The stack runs without it; start attempt"
                                    + " {} (failure {} in a row{}) in {} ms"
                            : "{} ended unexpectedly: {}. Restart {} (failure {} in a row{}) in {} ms",
                    component.name(),
                    lastFailure.orElse("unknown"),
                    restarts + 1,
                    failure,
                    policy.maxAttempts() == 0 ? "" : " of at most " + policy.maxAttempts(),
                    delay.toMillis());
            return Optional.of(delay);
        }

        /** One start and wait until healthy; the failure, or empty once the component is up (or was released). */
        private Optional<String> startOnce() {
            synchronized (this) {
                if (cancelled.getCount() == 0) {
                    return Optional.empty();
                }
                restarts++;
            }
            long startedAt = System.nanoTime();
            try {
                // Releases what the ended process left behind (its handle, its descendants) before a new one starts.
                component.stop();
                component.start();
            } catch (RuntimeException e) {
                if (cancelled.getCount() == 0) {
                    return Optional.empty();
                }
                stopQuietly();
                return Optional.of("restart failed: " + e.getMessage());
            }
            long deadline = startedAt + startTimeout.toNanos();
            while (!component.isHealthy()) {
                if (cancelled.getCount() == 0) {
                    return Optional.empty();
                }
                Optional<ComponentExit> exit = component.exit();
                if (exit.isPresent()) {
                    synchronized (this) {
                        lastExitCode = OptionalInt.of(exit.get().exitCode());
                    }
                    stopQuietly();
                    return Optional.of("exited while restarting with "
                            + exit.get().describe()
                            + exit.get().logFile().map(log -> "; read " + log).orElse(""));
                }
                if (System.nanoTime() - deadline > 0) {
                    stopQuietly();
                    return Optional.of("not healthy within " + startTimeout.toSeconds() + " s of its restart"
                            + component.logFile().map(log -> "; read " + log).orElse(""));
                }
                if (awaitCancelled(HEALTH_POLL_INTERVAL)) {
                    return Optional.empty();
                }
            }
            synchronized (this) {
                if (cancelled.getCount() == 0) {
                    return Optional.empty();
                }
                state = State.RUNNING;
                upSinceNanos = System.nanoTime();
                LOG.info(
                        "{} is running again (pid {}), healthy {} ms after restart {}; {} restart(s) since the stack"
                                + " started",
                        component.name(),
                        component.pid().isPresent()
                                ? Long.toString(component.pid().getAsLong())
                                : "unknown",
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAt),
                        restarts,
                        restarts);
            }
            publish();
            return Optional.empty();
        }

        private void recordFailure(String description) {
            failuresInARow++;
            lastFailure = Optional.of(description);
            lastFailureAt = Optional.of(Instant.now());
        }

        private void stopQuietly() {
            try {
                component.stop();
            } catch (RuntimeException e) {
                LOG.warn("Cannot stop {} after its failed restart: {}", component.name(), e.getMessage(), e);
            }
        }

        private boolean awaitCancelled(Duration wait) {
            try {
                return cancelled.await(wait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return true;
            }
        }

        /** Cancels a restart under way and waits until it has ended; see {@link Supervisor#release}. */
        void cancel() {
            Future<?> running;
            synchronized (this) {
                cancelled.countDown();
                running = restart;
            }
            if (running == null || running.isDone()) {
                return;
            }
            // A restart blocked in a long start (Trino waits until it is ready) ends when the component is stopped.
            stopQuietly();
            try {
                running.get(startTimeout.toMillis() + 60_000, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                LOG.warn("The cancelled restart of {} failed", component.name(), e.getCause());
            } catch (TimeoutException e) {
                LOG.error("The cancelled restart of {} did not end; it may start it again", component.name());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        synchronized ComponentStatus status() {
            return new ComponentStatus(
                    component.name(),
                    state,
                    state == State.RUNNING ? component.pid() : java.util.OptionalLong.empty(),
                    restarts,
                    failuresInARow,
                    lastExitCode,
                    lastFailure,
                    lastFailureAt,
                    component.logFile());
        }
    }
}
