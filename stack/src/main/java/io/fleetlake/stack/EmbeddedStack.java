package io.fleetlake.stack;

import static java.util.Objects.requireNonNull;

import io.fleetlake.operations.status.ComponentStatus;
import io.fleetlake.stack.component.Component;
import io.fleetlake.stack.component.ProcessComponent;
import io.fleetlake.stack.supervision.SupervisionPolicy;
import io.fleetlake.stack.supervision.Supervisor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts components like a health-checked compose file: each one once its dependencies are healthy (independent ones
 * in parallel), waits for its own health probe, and stops everything in reverse start order.
 *
 * <p>Components are <em>required</em> (the ingestion path: brokers, storage, the catalog, the pipeline) or
 * <em>optional</em> (the query side: Trino, the dashboard, maintenance, monitoring). The required ones start first; one
 * that fails to start stops the whole stack with an error naming it and quoting its log. The optional ones start once
 * every required one is healthy; one that fails or is slow never aborts the stack: it is logged, handed to the
 * supervisor, shown as {@link ComponentStatus.State#STARTING} and started again with backoff while ingestion runs.
 *
 * <p>With a lock file, one launcher at a time runs the stack of a data folder: a second one is refused at start, naming
 * the first, before it could take the first one's ports or stop its processes as leftovers.
 *
 * <p>Once healthy, every component is supervised ({@link Supervisor}): when its process ends by itself it is started
 * again with backoff, and the restarts are logged and counted ({@link #statuses()}). Stopping a component on purpose
 * ({@link #stop(String)}, {@link #close()}) ends its supervision first, so it stays stopped.
 */
public final class EmbeddedStack implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedStack.class);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(250);
    private static final Duration SUPERVISION_INTERVAL = Duration.ofMillis(500);

    private final Map<String, Component> components;
    private final Set<String> optional;
    private final Optional<Path> lockFile;
    private final Duration startTimeout;
    private final List<Component> started = Collections.synchronizedList(new ArrayList<>());
    private final Supervisor supervisor;
    private volatile boolean closing;
    private LauncherLock lock; // guarded by this

    /** A stack of required components supervised with the default policy, its statuses only kept in memory. */
    public EmbeddedStack(List<Component> components, Duration startTimeout) {
        this(components, Set.of(), Optional.empty(), startTimeout, SupervisionPolicy.defaults(), statuses -> {});
    }

    /**
     * @param optional the components the stack can run without; see the class comment. No required component may
     *     depend on one.
     * @param lockFile the data folder's launcher lock, if only one launcher may run this stack at a time
     * @param supervision how components that end by themselves are restarted
     * @param statusListener receives the supervisor's statuses after every change, for example to write them to a
     *     file that {@code fleet status} and {@code fleet verify} read
     */
    public EmbeddedStack(
            List<Component> components,
            Set<String> optional,
            Optional<Path> lockFile,
            Duration startTimeout,
            SupervisionPolicy supervision,
            Consumer<List<ComponentStatus>> statusListener) {
        requireNonNull(components, "components is null");
        this.optional = Set.copyOf(requireNonNull(optional, "optional is null"));
        this.lockFile = requireNonNull(lockFile, "lockFile is null");
        this.startTimeout = requireNonNull(startTimeout, "startTimeout is null");
        requireNonNull(supervision, "supervision is null");
        requireNonNull(statusListener, "statusListener is null");
        Map<String, Component> byName = new LinkedHashMap<>();
        for (Component component : components) {
            if (byName.put(component.name(), component) != null) {
                throw new IllegalArgumentException("Two components are named " + component.name());
            }
        }
        for (Component component : components) {
            for (String dependency : component.dependencies()) {
                if (!byName.containsKey(dependency)) {
                    throw new IllegalArgumentException(
                            component.name() + " depends on " + dependency + ", which is not part of the stack");
                }
            }
        }
        for (String name : this.optional) {
            if (!byName.containsKey(name)) {
                throw new IllegalArgumentException(name + " is marked optional but is not part of the stack");
            }
        }
        for (Component component : components) {
            if (!this.optional.contains(component.name())) {
                for (String dependency : component.dependencies()) {
                    if (this.optional.contains(dependency)) {
                        throw new IllegalArgumentException(component.name() + " is required but depends on "
                                + dependency + ", which the stack may run without");
                    }
                }
            }
        }
        this.components = Collections.unmodifiableMap(byName);
        topologicalOrder(); // rejects cycles at construction
        this.supervisor = new Supervisor(supervision, startTimeout, SUPERVISION_INTERVAL, statusListener);
    }

    public List<Component> components() {
        return List.copyOf(components.values());
    }

    public Component component(String name) {
        Component component = components.get(name);
        if (component == null) {
            throw new IllegalArgumentException("No component " + name + " in the stack; known: " + components.keySet());
        }
        return component;
    }

    /**
     * Starts every component; see the class comment. Returns once every required component is healthy and every
     * optional one is healthy or handed to the supervisor.
     *
     * @throws StackException when a required component does not start, or another launcher holds the lock
     */
    public void start() {
        acquireLock();
        ExecutorService executor = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "stack-start");
            thread.setDaemon(true);
            return thread;
        });
        Map<String, CompletableFuture<Void>> ready = new LinkedHashMap<>();
        try {
            List<Component> order = topologicalOrder();
            for (Component component : order) {
                if (!optional.contains(component.name())) {
                    ready.put(component.name(), afterDependencies(component, ready, executor, this::startAndAwait));
                }
            }
            CompletableFuture.allOf(ready.values().toArray(CompletableFuture[]::new))
                    .join();
            for (Component component : order) {
                if (optional.contains(component.name())) {
                    ready.put(component.name(), afterDependencies(component, ready, executor, this::startOptional));
                }
            }
            CompletableFuture.allOf(ready.values().toArray(CompletableFuture[]::new))
                    .join();
        } catch (CompletionException e) {
            close();
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw cause instanceof StackException stackException
                    ? stackException
                    : new StackException("The stack failed to start: " + cause.getMessage(), cause);
        } finally {
            executor.shutdownNow();
        }
    }

    private static CompletableFuture<Void> afterDependencies(
            Component component,
            Map<String, CompletableFuture<Void>> ready,
            ExecutorService executor,
            Consumer<Component> start) {
        CompletableFuture<?>[] dependencies =
                component.dependencies().stream().map(ready::get).toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(dependencies).thenRunAsync(() -> start.accept(component), executor);
    }

    /** Starts an optional component; one that does not become healthy is left to the supervisor instead of failing. */
    private void startOptional(Component component) {
        try {
            startAndAwait(component);
        } catch (StackException e) {
            if (closing) {
                throw e;
            }
            LOG.warn(
                    "{} is not running: {}. It is optional: the stack runs without it, and the supervisor keeps"
                            + " starting it with backoff (fleet status shows it as STARTING)",
                    component.name(),
                    e.getMessage());
            component.stop();
            supervisor.retry(component, e.getMessage());
        }
    }

    private synchronized void acquireLock() {
        if (lockFile.isPresent() && lock == null) {
            lock = LauncherLock.acquire(lockFile.get());
        }
    }

    private synchronized void releaseLock() {
        if (lock != null) {
            lock.close();
            lock = null;
        }
    }

    /** Stops and starts one component again, waiting until it is healthy; for operations and failure tests. */
    public void restart(String name) {
        stop(name);
        start(name);
    }

    /**
     * Stops one component, for example to take a dependency away from the others; {@link #start(String)} undoes it. The
     * supervisor does not restart it.
     */
    public void stop(String name) {
        Component component = component(name);
        LOG.info("Stopping {}", name);
        supervisor.release(name);
        component.stop();
        started.remove(component);
    }

    /** Starts one stopped component and waits until it is healthy; it is supervised from then on. */
    public void start(String name) {
        startAndAwait(component(name));
    }

    /**
     * Kills one component's process without a chance to clean up, as a crash or {@code kill -9} would, and waits until
     * the supervisor has started it again and it is healthy; for failure-injection tests.
     *
     * @throws StackException when it is not running again within the start timeout plus the supervisor's backoff
     */
    public void crashAndRestart(String name) {
        if (!(component(name) instanceof ProcessComponent process)) {
            throw new IllegalArgumentException(name + " is not a process and cannot crash");
        }
        int restartsBefore = restarts(name);
        LOG.info("Killing {}", name);
        process.kill();
        awaitRestart(name, restartsBefore, startTimeout.plus(Duration.ofMinutes(1)));
    }

    /**
     * Waits until the supervisor has restarted {@code name} more than {@code restartsBefore} times and it runs healthy
     * again.
     *
     * @throws StackException when that does not happen within {@code timeout}, or the supervisor gave up on it
     */
    public void awaitRestart(String name, int restartsBefore, Duration timeout) {
        Component component = component(name);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<ComponentStatus> status = statusUnlessGivenUp(name);
            if (status.isPresent()
                    && status.get().restarts() > restartsBefore
                    && status.get().state() == ComponentStatus.State.RUNNING
                    && component.isHealthy()) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new StackException(name + " was not restarted within " + timeout.toSeconds() + " s"
                        + component.logFile().map(log -> "; see " + log).orElse(""));
            }
            waitBriefly("waiting for " + name + " to be restarted");
        }
    }

    /**
     * Waits until {@code name} is healthy, for a command that needs an optional component the stack may still be
     * starting (the demo's report reads through Trino).
     *
     * @throws StackException when it is not healthy within {@code timeout}, or the supervisor gave up on it
     */
    public void awaitHealthy(String name, Duration timeout) {
        Component component = component(name);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!component.isHealthy()) {
            Optional<ComponentStatus> status = statusUnlessGivenUp(name);
            if (System.nanoTime() - deadline > 0) {
                throw new StackException(name + " is not healthy " + timeout.toSeconds() + " s after it was needed"
                        + status.flatMap(ComponentStatus::lastFailure)
                                .map(failure -> " (" + failure + ")")
                                .orElse("")
                        + component.logFile().map(log -> "; see " + log).orElse(""));
            }
            waitBriefly("waiting for " + name);
        }
    }

    /**
     * The supervisor's status of {@code name}; empty when it is not supervised.
     *
     * @throws StackException when the supervisor gave up on it: no wait for it can end then
     */
    private Optional<ComponentStatus> statusUnlessGivenUp(String name) {
        Optional<ComponentStatus> status = supervisor.status(name);
        if (status.isPresent() && status.get().state() == ComponentStatus.State.GAVE_UP) {
            throw new StackException("The supervisor gave up on " + name + ": "
                    + status.get().lastFailure().orElse("unknown failure"));
        }
        return status;
    }

    /** How often the supervisor has restarted {@code name} since the stack started; 0 when it is not supervised. */
    public int restarts(String name) {
        return supervisor.status(name).map(ComponentStatus::restarts).orElse(0);
    }

    /** What the supervisor knows about every running component: state, process, restarts, last failure. */
    public List<ComponentStatus> statuses() {
        return supervisor.statuses();
    }

    /**
     * Freezes a component's process with SIGSTOP, as a stalled machine or a hung disk would: it keeps its connections
     * but answers nothing until {@link #resume(String)}. The supervisor does not take a paused process for a dead one.
     * For failure-injection tests.
     */
    public void pause(String name) {
        LOG.info("Pausing {} (SIGSTOP)", name);
        processComponent(name).pause();
    }

    /** Lets a {@link #pause(String) paused} component run again (SIGCONT). */
    public void resume(String name) {
        LOG.info("Resuming {} (SIGCONT)", name);
        processComponent(name).resume();
    }

    private ProcessComponent processComponent(String name) {
        if (!(component(name) instanceof ProcessComponent process)) {
            throw new IllegalArgumentException(name + " is not a process of this stack and cannot be paused");
        }
        return process;
    }

    private void startAndAwait(Component component) {
        long startedAt = System.nanoTime();
        if (closing) {
            throw new StackException("The stack is stopping; " + component.name() + " is not started");
        }
        LOG.info("Starting {}", component.name());
        // Registered before it starts: a stop while it starts (Ctrl-C during a slow start) must reach it too.
        started.add(component);
        try {
            component.start();
        } catch (RuntimeException e) {
            throw new StackException("Cannot start " + component.name() + ": " + e.getMessage(), e);
        }
        if (closing) {
            component.stop();
            throw new StackException("The stack is stopping; " + component.name() + " was stopped again");
        }
        long deadline = startedAt + startTimeout.toNanos();
        while (!component.isHealthy()) {
            Optional<String> failure = component.failure();
            if (failure.isPresent()) {
                throw new StackException(failure.get());
            }
            if (System.nanoTime() > deadline) {
                throw new StackException(component.name() + " did not become healthy within " + startTimeout.toSeconds()
                        + " s" + component.logFile().map(log -> "; see " + log).orElse(""));
            }
            waitBriefly("waiting for " + component.name());
        }
        supervisor.watch(component);
        String endpoint = component.endpoint();
        LOG.info(
                "{} ready{} ({} ms)",
                component.name(),
                endpoint.isEmpty() ? "" : " on " + endpoint,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAt));
    }

    private static void waitBriefly(String doing) {
        try {
            TimeUnit.MILLISECONDS.sleep(POLL_INTERVAL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StackException("Interrupted while " + doing, e);
        }
    }

    /** Ends supervision, then stops every started component in reverse start order. */
    @Override
    public void close() {
        closing = true;
        supervisor.close();
        List<Component> toStop;
        synchronized (started) {
            toStop = new ArrayList<>(started);
            started.clear();
        }
        Collections.reverse(toStop);
        for (Component component : toStop) {
            LOG.info("Stopping {}", component.name());
            try {
                component.stop();
            } catch (RuntimeException e) {
                LOG.error("Stopping {} failed; continuing with the others", component.name(), e);
            }
        }
        releaseLock();
    }

    private List<Component> topologicalOrder() {
        List<Component> order = new ArrayList<>();
        Map<String, Boolean> visiting = new LinkedHashMap<>();
        for (String name : components.keySet()) {
            visit(name, visiting, order);
        }
        return order;
    }

    private void visit(String name, Map<String, Boolean> state, List<Component> order) {
        Boolean done = state.get(name);
        if (Boolean.TRUE.equals(done)) {
            return;
        }
        if (Boolean.FALSE.equals(done)) {
            throw new IllegalArgumentException("Component dependencies form a cycle through " + name);
        }
        state.put(name, false);
        for (String dependency : components.get(name).dependencies()) {
            visit(dependency, state, order);
        }
        state.put(name, true);
        order.add(components.get(name));
    }

    /** The stack could not start or a component failed. */
    public static final class StackException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public StackException(String message) {
            super(message);
        }

        public StackException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
