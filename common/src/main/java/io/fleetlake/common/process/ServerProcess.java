package io.fleetlake.common.process;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life of a component process around its server: start it, log {@code "<Component> ready on <host>:<port>"}, block
 * until the process is told to stop, close the server, and return the exit status for {@code System.exit}.
 *
 * <pre>{@code
 * return ServerProcess.runUntilShutdown("Kafka broker", shutdown -> {
 *     KafkaBroker broker = shutdown.closes(new KafkaBroker(KafkaBrokerConfig.from(config.load())));
 *     broker.start();
 *     return StartedServer.on(broker.bootstrapServers());
 * });
 * }</pre>
 *
 * <p>Exit status 1 when the server does not start: an invalid configuration ({@link ConfigException}) is logged as
 * one line, since its message names the key, the value and where it came from; any other failure is logged with its
 * stack trace. Exit status 0 when the process is stopped, also while the server is still starting. Exit status 1 when
 * a server in another process stops by itself (see {@link StartedServer#watching(ExitWatch)}). Closing the server
 * never throws: a failure is logged.
 */
public final class ServerProcess {
    private static final Logger LOG = LoggerFactory.getLogger(ServerProcess.class);

    private ServerProcess() {}

    /**
     * Starts the server with {@code starter} and blocks until the JVM shuts down (SIGTERM, Ctrl-C, {@code
     * System.exit}); the server is closed in a shutdown hook.
     *
     * @param componentName how log lines name the component, such as {@code "Kafka broker"}
     * @return the exit status: 0 after a stop, 1 when the server failed to start or stopped by itself
     * @throws InterruptedException when the calling thread is interrupted while it waits; the server is closed first
     */
    public static int runUntilShutdown(String componentName, Starter starter) throws InterruptedException {
        return runUntilShutdown(
                componentName,
                starter,
                action ->
                        Runtime.getRuntime().addShutdownHook(new Thread(action, threadName(componentName, "shutdown"))),
                LOG);
    }

    /**
     * As {@link #runUntilShutdown(String, Starter)}, with the action that stops the server handed to {@code
     * onShutdown} instead of a JVM shutdown hook, and logging to {@code log}.
     */
    static int runUntilShutdown(String componentName, Starter starter, Consumer<Runnable> onShutdown, Logger log)
            throws InterruptedException {
        requireNonNull(componentName, "componentName is null");
        requireNonNull(starter, "starter is null");
        requireNonNull(onShutdown, "onShutdown is null");
        requireNonNull(log, "log is null");
        Run run = new Run(componentName, log);
        // The stop action is in place before anything is created, so a stop at any moment is handled the same way:
        // before the server exists it is never started; while it starts, close() runs concurrently and either aborts
        // the start (a server in another process, such as Trino, is not left behind) or waits for it and stops it
        // (servers whose start and close are synchronized); after the start it is a normal stop. A hook registered only
        // after the start would skip the close when the process is stopped during a slow start: Trino's server process
        // would outlive this one, and a server in this JVM would end without flushing and releasing its data.
        onShutdown.accept(run::stop);

        long startNanos = System.nanoTime();
        StartedServer started;
        try {
            started = starter.start(run);
            run.requireServer();
        } catch (ConfigException e) {
            return failedStart(run, e, () -> log.error("{} not started: {}", componentName, e.getMessage()));
        } catch (RuntimeException | LinkageError e) {
            // LinkageError: a class missing from the class path surfaces only when the server first loads it.
            return failedStart(run, e, () -> log.error("{} failed to start: {}", componentName, e.getMessage(), e));
        }
        if (run.stopRequested()) {
            // The shutdown hook is closing it; returning before it has finished could cut the close short.
            run.close();
            return 0;
        }
        log.info("{} started in {} ms", componentName, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
        log.info("{} ready on {}", componentName, started.endpoint());
        started.exitWatch().ifPresent(run::watch);
        try {
            run.awaitEnd();
        } catch (InterruptedException e) {
            run.close();
            throw e;
        }
        run.close();
        if (run.stopRequested()) {
            return 0;
        }
        log.error("{}", run.exitReason());
        return 1;
    }

    private static int failedStart(Run run, Throwable failure, Runnable logFailure) {
        // A stop during the start closes the server under it, and the start then fails: that is the stop, not an error.
        boolean stopped = run.stopRequested();
        if (stopped) {
            run.log.info("Stopped while {} was starting", run.componentName);
            run.log.debug("What ended the start of {}", run.componentName, failure);
        } else {
            logFailure.run();
        }
        run.close();
        return stopped ? 0 : 1;
    }

    private static String threadName(String componentName, String purpose) {
        return componentName.toLowerCase(Locale.ROOT).replace(' ', '-') + "-" + purpose;
    }

    /** Creates and starts a component's server. */
    @FunctionalInterface
    public interface Starter {
        /**
         * Reads the configuration, creates the server, hands it to {@link Shutdown#closes} and only then starts it;
         * returns once the server serves. Throws {@link ConfigException} for an invalid configuration.
         */
        StartedServer start(Shutdown shutdown);
    }

    /** Where a {@link Starter} hands over its server before starting it. */
    public interface Shutdown {
        /**
         * Has {@code server} closed when the process stops, also while {@code server.start()} runs: {@code close()}
         * must then stop what the start has started or make the start fail, and must tolerate being called for a
         * server that never started.
         *
         * @return {@code server}
         * @throws CancellationException when the process was told to stop already; do not start the server
         * @throws IllegalStateException when a server was handed over already
         */
        <T extends AutoCloseable> T closes(T server);
    }

    /**
     * A server that serves.
     *
     * @param endpoint {@code host:port}, as the ready line shows it
     * @param exitWatch for a server that can stop by itself, such as one in another process: how to wait for that
     */
    public record StartedServer(String endpoint, Optional<ExitWatch> exitWatch) {
        public StartedServer {
            requireNonNull(endpoint, "endpoint is null");
            requireNonNull(exitWatch, "exitWatch is null");
        }

        /** A server in this JVM, which stops only when it is closed. */
        public static StartedServer on(String endpoint) {
            return new StartedServer(endpoint, Optional.empty());
        }

        /** This server, which can stop by itself; the process then closes it and exits with status 1. */
        public StartedServer watching(ExitWatch watch) {
            return new StartedServer(endpoint, Optional.of(requireNonNull(watch, "watch is null")));
        }
    }

    /** Waits for a server that can stop without being closed, such as a server process. */
    @FunctionalInterface
    public interface ExitWatch {
        /**
         * Blocks until the server has stopped, for whatever reason, and returns the error to log when the process was
         * not told to stop, such as {@code "Trino exited unexpectedly with status 137; see the server log ..."}.
         */
        String awaitExit() throws InterruptedException;
    }

    /** One run: the server handed over, whether a stop was requested, and how the wait ended. */
    private static final class Run implements Shutdown {
        private final String componentName;
        private final Logger log;
        private final CountDownLatch ended = new CountDownLatch(1);
        private final Object closeLock = new Object();

        private AutoCloseable server; // guarded by this
        private boolean stopRequested; // guarded by this
        private String exitReason; // guarded by this
        private boolean closeStarted; // guarded by closeLock

        Run(String componentName, Logger log) {
            this.componentName = componentName;
            this.log = log;
        }

        @Override
        public synchronized <T extends AutoCloseable> T closes(T candidate) {
            requireNonNull(candidate, "server is null");
            if (server != null) {
                throw new IllegalStateException("A starter hands over one server; " + componentName + " has one");
            }
            // Kept even when the stop came first, so that the starting thread closes it on its way out.
            server = candidate;
            if (stopRequested) {
                throw new CancellationException(componentName + " was told to stop before it started");
            }
            return candidate;
        }

        synchronized void requireServer() {
            if (server == null) {
                throw new IllegalStateException("The starter of " + componentName
                        + " did not hand its server to Shutdown.closes before starting it; it would never be closed");
            }
        }

        synchronized boolean stopRequested() {
            return stopRequested;
        }

        synchronized String exitReason() {
            return exitReason;
        }

        /** The shutdown action: runs once, on the shutdown hook's thread. */
        void stop() {
            synchronized (this) {
                stopRequested = true;
            }
            close();
            ended.countDown();
        }

        void watch(ExitWatch exitWatch) {
            Thread watcher = new Thread(() -> awaitExit(exitWatch), threadName(componentName, "exit-watch"));
            watcher.setDaemon(true);
            watcher.start();
        }

        private void awaitExit(ExitWatch exitWatch) {
            String reason;
            try {
                reason = exitWatch.awaitExit();
            } catch (InterruptedException e) {
                // Nothing here interrupts the watcher; if something does, the process still ends on its stop signal.
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                log.error("Cannot watch {}; stopping it: {}", componentName, e.getMessage(), e);
                reason = componentName + " is no longer watched: " + e.getMessage();
            }
            synchronized (this) {
                exitReason = reason;
            }
            ended.countDown();
        }

        void awaitEnd() throws InterruptedException {
            ended.await();
        }

        /**
         * Closes the server handed over, once; a second caller waits until the first has finished, so that neither
         * the shutdown hook nor the starting thread returns while the server is still being closed.
         */
        void close() {
            synchronized (closeLock) {
                AutoCloseable current;
                synchronized (this) {
                    current = server;
                }
                if (closeStarted || current == null) {
                    return;
                }
                closeStarted = true;
                try {
                    current.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    log.error("{} did not stop cleanly: interrupted while stopping", componentName, e);
                } catch (Exception | LinkageError e) {
                    log.error("{} did not stop cleanly: {}", componentName, e.getMessage(), e);
                }
            }
        }
    }
}
