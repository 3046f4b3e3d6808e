package io.fleetlake.common.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.awaitility.Awaitility.await;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.process.ServerProcess.StartedServer;
import io.fleetlake.common.process.ServerProcess.Starter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

// A helper that no longer ends its wait would otherwise hang the build.
@Timeout(30)
class ServerProcessTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final RecordingLogger log = new RecordingLogger();
    private final AtomicReference<Runnable> shutdownAction = new AtomicReference<>();
    private final ExecutorService background = Executors.newCachedThreadPool();

    @AfterEach
    void stopBackgroundThreads() {
        background.shutdownNow();
    }

    @Test
    void invalidConfigurationIsLoggedAsOneLineAndExitsWithOne() throws InterruptedException {
        int status = run("Kafka broker", shutdown -> {
            throw new ConfigException("Invalid configuration kafka.port = 'x' from command line --set");
        });

        assertThat(status).isEqualTo(1);
        assertThat(log.records())
                .containsExactly(new LogRecord(
                        Level.ERROR,
                        "Kafka broker not started: Invalid configuration kafka.port = 'x' from command line --set",
                        null));
    }

    @Test
    void startFailureIsLoggedWithItsStackTraceClosesTheServerAndExitsWithOne() throws InterruptedException {
        FakeServer server = new FakeServer();
        IllegalStateException failure = new IllegalStateException("127.0.0.1:9000 is already in use");

        int status = run("S3 server", shutdown -> {
            shutdown.closes(server);
            throw failure;
        });

        assertThat(status).isEqualTo(1);
        assertThat(log.records())
                .containsExactly(new LogRecord(
                        Level.ERROR, "S3 server failed to start: 127.0.0.1:9000 is already in use", failure));
        assertThat(server.closeCount()).isEqualTo(1);
    }

    @Test
    void linkageErrorAtStartIsLoggedWithItsStackTraceAndExitsWithOne() throws InterruptedException {
        NoClassDefFoundError failure = new NoClassDefFoundError("org/apache/iceberg/jdbc/JdbcCatalog");

        int status = run("Iceberg REST catalog", shutdown -> {
            throw failure;
        });

        assertThat(status).isEqualTo(1);
        assertThat(log.records())
                .containsExactly(new LogRecord(
                        Level.ERROR,
                        "Iceberg REST catalog failed to start: org/apache/iceberg/jdbc/JdbcCatalog",
                        failure));
    }

    @Test
    void logsReadyBlocksUntilShutdownThenClosesTheServerAndExitsWithZero() throws Exception {
        FakeServer server = new FakeServer();
        Future<Integer> status = runInBackground("Connect worker", shutdown -> {
            shutdown.closes(server);
            return StartedServer.on("127.0.0.1:8083");
        });

        await().atMost(TIMEOUT).until(() -> log.contains(Level.INFO, "Connect worker ready on 127.0.0.1:8083"));
        assertThat(log.messages()).anyMatch(message -> message.matches("Connect worker started in \\d+ ms"));
        await().during(Duration.ofMillis(300)).atMost(TIMEOUT).until(() -> !status.isDone());
        assertThat(server.closeCount()).isZero();

        shutdownAction.get().run();

        assertThat(status.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isZero();
        assertThat(server.closeCount()).isEqualTo(1);
        assertThat(log.levels()).doesNotContain(Level.ERROR);
    }

    @Test
    void stopBeforeTheServerIsHandedOverNeverStartsItAndExitsWithZero() throws InterruptedException {
        FakeServer server = new FakeServer();
        AtomicBoolean started = new AtomicBoolean();

        int status = run("Kafka broker", shutdown -> {
            // The stop action is in place before the starter runs, for example while it loads the configuration.
            shutdownAction.get().run();
            shutdown.closes(server);
            started.set(true);
            return StartedServer.on("127.0.0.1:9092");
        });

        assertThat(status).isZero();
        assertThat(started).isFalse();
        assertThat(server.closeCount()).isEqualTo(1);
        assertThat(log.records()).contains(new LogRecord(Level.INFO, "Stopped while Kafka broker was starting", null));
        assertThat(log.levels()).doesNotContain(Level.ERROR);
    }

    @Test
    void stopThatMakesTheStartFailIsNotAnErrorAndExitsWithZero() throws InterruptedException {
        FakeServer server = new FakeServer();

        int status = run("Trino", shutdown -> {
            shutdown.closes(server);
            // Like Trino: the stop kills the server process, and the start then fails.
            background.execute(shutdownAction.get());
            await().atMost(TIMEOUT).until(() -> server.closeCount() == 1);
            throw new IllegalStateException("Trino was stopped while starting");
        });

        assertThat(status).isZero();
        assertThat(server.closeCount()).isEqualTo(1);
        assertThat(log.records()).contains(new LogRecord(Level.INFO, "Stopped while Trino was starting", null));
        assertThat(log.levels()).doesNotContain(Level.ERROR);
    }

    @Test
    void stopDuringAStartThatCompletesClosesTheServerAfterTheStartWithoutReadyLine() throws InterruptedException {
        FakeServer server = new FakeServer();
        AtomicReference<Thread> stopping = new AtomicReference<>();

        int status = run("MQTT broker", shutdown -> {
            shutdown.closes(server).start(() -> {
                // The stop arrives while start() holds the server's lock; close() waits for the start to finish.
                stopping.set(new Thread(shutdownAction.get(), "test-shutdown"));
                stopping.get().start();
                await().atMost(TIMEOUT).until(() -> stopping.get().getState() == Thread.State.BLOCKED);
            });
            return StartedServer.on("127.0.0.1:1883");
        });

        assertThat(status).isZero();
        assertThat(server.closeCount()).isEqualTo(1);
        assertThat(server.closedAfterStart()).isTrue();
        assertThat(log.messages()).noneMatch(message -> message.contains("ready on"));
        assertThat(log.levels()).doesNotContain(Level.ERROR);
    }

    @Test
    void serverThatStopsByItselfIsClosedAndExitsWithOne() throws InterruptedException {
        FakeServer server = new FakeServer();

        int status = run("Trino", shutdown -> {
            shutdown.closes(server);
            return StartedServer.on("127.0.0.1:8080")
                    .watching(() -> "Trino exited unexpectedly with status 137; see the server log server.log");
        });

        assertThat(status).isEqualTo(1);
        assertThat(server.closeCount()).isEqualTo(1);
        assertThat(log.records())
                .contains(new LogRecord(Level.INFO, "Trino ready on 127.0.0.1:8080", null))
                .endsWith(new LogRecord(
                        Level.ERROR, "Trino exited unexpectedly with status 137; see the server log server.log", null));
    }

    @Test
    void watchedServerStoppedByTheProcessExitsWithZero() throws Exception {
        FakeServer server = new FakeServer();
        Future<Integer> status = runInBackground("Trino", shutdown -> {
            shutdown.closes(server);
            return StartedServer.on("127.0.0.1:8080").watching(() -> {
                server.awaitClosed();
                return "Trino exited unexpectedly with status 143; see the server log server.log";
            });
        });
        await().atMost(TIMEOUT).until(() -> log.contains(Level.INFO, "Trino ready on 127.0.0.1:8080"));

        shutdownAction.get().run();

        assertThat(status.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isZero();
        assertThat(server.closeCount()).isEqualTo(1);
        assertThat(log.levels()).doesNotContain(Level.ERROR);
    }

    @Test
    void closeFailureIsLoggedNotThrown() throws Exception {
        IllegalStateException failure = new IllegalStateException("HiveMQ did not stop within 60 s");
        FakeServer server = new FakeServer(failure);
        Future<Integer> status = runInBackground("MQTT broker", shutdown -> {
            shutdown.closes(server);
            return StartedServer.on("127.0.0.1:1883");
        });
        await().atMost(TIMEOUT).until(() -> log.contains(Level.INFO, "MQTT broker ready on 127.0.0.1:1883"));

        assertThatCode(() -> shutdownAction.get().run()).doesNotThrowAnyException();

        assertThat(status.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isZero();
        assertThat(log.records())
                .contains(new LogRecord(
                        Level.ERROR, "MQTT broker did not stop cleanly: HiveMQ did not stop within 60 s", failure));
    }

    @Test
    void starterThatDoesNotHandOverItsServerFailsToStart() throws InterruptedException {
        int status = run("S3 server", shutdown -> StartedServer.on("127.0.0.1:9000"));

        assertThat(status).isEqualTo(1);
        assertThat(log.records()).singleElement().satisfies(record -> {
            assertThat(record.level()).isEqualTo(Level.ERROR);
            assertThat(record.message())
                    .startsWith("S3 server failed to start: ")
                    .contains("Shutdown.closes");
        });
    }

    private int run(String componentName, Starter starter) throws InterruptedException {
        return ServerProcess.runUntilShutdown(componentName, starter, shutdownAction::set, log);
    }

    private Future<Integer> runInBackground(String componentName, Starter starter) {
        return background.submit(() -> run(componentName, starter));
    }

    /** Counts its closes; {@link #start} and {@link #close} share a lock, like the servers in this project. */
    private static final class FakeServer implements AutoCloseable {
        private final RuntimeException closeFailure;
        private final AtomicInteger closeCount = new AtomicInteger();
        private final CountDownLatch closed = new CountDownLatch(1);
        private boolean started; // guarded by this
        private boolean closedAfterStart; // guarded by this

        FakeServer() {
            this(null);
        }

        FakeServer(RuntimeException closeFailure) {
            this.closeFailure = closeFailure;
        }

        synchronized void start(Runnable whileStarting) {
            whileStarting.run();
            started = true;
        }

        @Override
        public synchronized void close() {
            closeCount.incrementAndGet();
            closedAfterStart = started;
            closed.countDown();
            if (closeFailure != null) {
                throw closeFailure;
            }
        }

        int closeCount() {
            return closeCount.get();
        }

        synchronized boolean closedAfterStart() {
            return closedAfterStart;
        }

        void awaitClosed() throws InterruptedException {
            closed.await();
        }
    }

    private record LogRecord(Level level, String message, Throwable throwable) {}

    /** Keeps what is logged, formatted as SLF4J formats it, with the throwable that would print a stack trace. */
    private static final class RecordingLogger extends LegacyAbstractLogger {
        private static final long serialVersionUID = 1L;

        private final List<LogRecord> records = new CopyOnWriteArrayList<>();

        RecordingLogger() {
            this.name = ServerProcessTest.class.getName();
        }

        List<LogRecord> records() {
            return records.stream()
                    .filter(record -> record.level() != Level.DEBUG)
                    .toList();
        }

        List<String> messages() {
            return records().stream().map(LogRecord::message).toList();
        }

        List<Level> levels() {
            return records().stream().map(LogRecord::level).toList();
        }

        boolean contains(Level level, String message) {
            return records().stream()
                    .anyMatch(record ->
                            record.level() == level && record.message().equals(message));
        }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(
                Level level, Marker marker, String messagePattern, Object[] arguments, Throwable throwable) {
            records.add(new LogRecord(level, MessageFormatter.basicArrayFormat(messagePattern, arguments), throwable));
        }

        @Override
        public boolean isTraceEnabled() {
            return false;
        }

        @Override
        public boolean isDebugEnabled() {
            return true;
        }

        @Override
        public boolean isInfoEnabled() {
            return true;
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }
    }
}
