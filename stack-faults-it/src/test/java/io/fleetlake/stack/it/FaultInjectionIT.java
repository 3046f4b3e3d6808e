package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.Topics;
import io.fleetlake.operations.inspect.FlinkInspector;
import io.fleetlake.operations.inspect.KafkaInspector;
import io.fleetlake.operations.status.ComponentStatus;
import io.fleetlake.operations.status.StackStatusFile.StackStatus;
import io.fleetlake.operations.verify.FixKey;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.cluster.StackFlinkRest;
import io.fleetlake.stack.component.Component;
import io.fleetlake.stack.process.FleetHome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Nothing is lost or duplicated while components fail under load: several MQTT clients publish a ledger of positions
 * (QoS 1) while the test kills the pipeline and the Connect worker with SIGKILL, freezes the Kafka broker, the S3
 * server and Redis with SIGSTOP, and then crashes the whole stack: SIGKILL to the launcher ({@code fleet up}, in a JVM
 * of its own, as a user runs it) and to every process it started, except the MQTT broker, which is frozen first so
 * that it outlives its launcher as a hung orphan holding its port. A second {@code fleet up} on the same data folder
 * must stop that leftover and bring everything back with no manual step. The stack's supervisor, not the test, brings
 * killed processes back. Then {@code fleet verify} must find 0 lost and 0 duplicated, and every acknowledged position
 * must be exactly once in {@code fleet.positions}.
 *
 * <p>It needs a stack of its own (it crashes the whole stack), always with the embedded servers (it signals their
 * processes), and so a module of its own: Maven runs it beside the shared stack's classes (stack-it), the longest
 * class of the suite overlapping the others instead of adding to them; its recovery figures are therefore measured on
 * a machine that runs a second stack. The figures (events, each fault's recovery) are logged and written to {@code
 * target/fault-injection-figures.txt}.
 */
@Timeout(value = 45, unit = TimeUnit.MINUTES)
class FaultInjectionIT {
    private static final Logger LOG = LoggerFactory.getLogger(FaultInjectionIT.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PREFIX = "FLT-";
    private static final int CLIENTS = 4;
    private static final int VEHICLES_PER_CLIENT = 5;
    private static final Duration RECOVERY_TIMEOUT = Duration.ofMinutes(4);
    private static final Duration KAFKA_PAUSE = Duration.ofSeconds(20);
    private static final Duration S3_PAUSE = Duration.ofSeconds(30);
    private static final Duration REDIS_PAUSE = Duration.ofSeconds(30);

    private final List<FaultFigure> figures = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private StackSettings settings;
    private FleetHome home;
    private LauncherProcess launcher;
    private Set<String> components;

    @Test
    void nothingIsLostOrDuplicatedWhileComponentsAreKilledPausedAndRestarted() throws Exception {
        home = FleetHome.locate();
        settings = settings(
                Path.of("target", "fault-stack-" + Instant.now().toEpochMilli()).toAbsolutePath());
        long testStart = System.nanoTime();
        components = FleetStack.create(settings, home).components().stream()
                .map(Component::name)
                .collect(Collectors.toSet());
        launcher = LauncherProcess.start(settings, home, "launcher.log");
        try {
            launcher.awaitRunning(components, RECOVERY_TIMEOUT.multipliedBy(2));
            try (LedgerPublishers publishers = LedgerPublishers.start(settings, PREFIX, CLIENTS, VEHICLES_PER_CLIENT)) {
                await().atMost(RECOVERY_TIMEOUT)
                        .pollInterval(Duration.ofSeconds(1))
                        .ignoreExceptions()
                        .until(() -> rows() > 0);

                kill(FleetStack.PIPELINE);
                kill(FleetStack.CONNECT);
                pause(FleetStack.S3, S3_PAUSE);
                pause(FleetStack.REDIS, REDIS_PAUSE);
                pause(FleetStack.KAFKA, KAFKA_PAUSE);
                String beforeRestart = restartSummary();
                crashWholeStack();

                publishers.stop(Duration.ofMinutes(5));
                verifyAndReport(publishers, beforeRestart, Duration.ofNanos(System.nanoTime() - testStart));
            }
        } finally {
            launcher.close();
        }
    }

    private static StackSettings settings(Path dataDirectory) {
        ConfigSource configuration = ConfigSource.of(Map.ofEntries(
                Map.entry(StackSettings.FREE_PORTS, "true"),
                Map.entry(StackSettings.START_TIMEOUT, "6m"),
                Map.entry("trino.startup-timeout", "5m"),
                Map.entry("pipeline.checkpoint-interval", "2s"),
                Map.entry("pipeline.source-idleness", "5s"),
                // Quick restarts: the test measures how fast the stack heals, not the production backoff.
                Map.entry("stack.restart-initial-delay", "1s"),
                Map.entry("stack.restart-max-delay", "10s")));
        return StackSettings.from(configuration, dataDirectory);
    }

    /** SIGKILL to the component's process; the supervisor must bring it back. */
    private void kill(String component) {
        String fault = "kill -9 " + component;
        int restartsBefore = launcher.restarts(component);
        long pid = launcher.pid(component).orElseThrow();
        long rowsBefore = rowsNow();
        Instant faultAt = Instant.now();
        LOG.info("Fault: {} (pid {})", fault, pid);
        assertThat(ProcessHandle.of(pid).orElseThrow().destroyForcibly()).isTrue();
        Optional<Duration> back = Optional.empty();
        try {
            await().atMost(RECOVERY_TIMEOUT)
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> launcher.status(component)
                            .map(status -> status.restarts() > restartsBefore
                                    && status.state() == ComponentStatus.State.RUNNING)
                            .orElse(false));
            back = Optional.of(Duration.between(faultAt, Instant.now()));
            assertThat(launcher.restarts(component))
                    .as("%s was restarted once, by the supervisor", component)
                    .isEqualTo(restartsBefore + 1);
        } catch (RuntimeException | AssertionError e) {
            fail(fault, "the supervisor did not bring " + component + " back: " + e.getMessage());
        }
        figures.add(recovery(fault, Duration.ZERO, back, faultAt, rowsBefore));
    }

    /** SIGSTOP for {@code hold}, then SIGCONT; nothing may restart the frozen process meanwhile. */
    private void pause(String component, Duration hold) throws InterruptedException {
        String fault = "pause " + component + " (SIGSTOP " + hold.toSeconds() + " s)";
        int restartsBefore = launcher.restarts(component);
        ProcessHandle process =
                ProcessHandle.of(launcher.pid(component).orElseThrow()).orElseThrow();
        LOG.info("Fault: {}", fault);
        LauncherProcess.signal("STOP", process);
        try {
            // The fault itself: the process stays frozen this long, whatever happens around it.
            TimeUnit.MILLISECONDS.sleep(hold.toMillis());
        } finally {
            LauncherProcess.signal("CONT", process);
        }
        Instant resumedAt = Instant.now();
        if (launcher.restarts(component) != restartsBefore) {
            fail(fault, "the supervisor restarted the paused " + component + " instead of leaving it frozen");
        }
        figures.add(recovery(fault, hold, Optional.empty(), resumedAt, rowsNow()));
    }

    /**
     * The whole stack crashes as a power cut to the launcher's process group would leave it, but for one hung process:
     * the MQTT broker is frozen (SIGSTOP, so it cannot act on its launcher's death), then the launcher and every other
     * process get SIGKILL. A new launcher on the same data folder and ports must stop the leftover broker (it holds its
     * port) and bring the stack back.
     */
    private void crashWholeStack() {
        String fault = "kill -9 launcher and all, 1 hung";
        LOG.info("Fault: {}", fault);
        ProcessHandle broker =
                ProcessHandle.of(launcher.pid(FleetStack.MQTT).orElseThrow()).orElseThrow();
        Set<Long> frozen = new HashSet<>();
        frozen.add(broker.pid());
        broker.descendants().forEach(descendant -> frozen.add(descendant.pid()));
        LauncherProcess.signal("STOP", broker);
        List<ProcessHandle> others = launcher.descendants().stream()
                .filter(process -> !frozen.contains(process.pid()))
                .toList();
        Instant crashAt = Instant.now();
        launcher.kill();
        others.forEach(ProcessHandle::destroyForcibly);
        await().atMost(Duration.ofSeconds(30)).until(() -> others.stream().noneMatch(ProcessHandle::isAlive));
        if (!broker.isAlive()) {
            fail(fault, "the frozen MQTT broker did not outlive its launcher, so no leftover was left to clean up");
        }
        launcher = LauncherProcess.start(settings, home, "launcher-after-crash.log");
        try {
            launcher.awaitRunning(components, RECOVERY_TIMEOUT.multipliedBy(2));
        } catch (RuntimeException e) {
            fail(fault, "the stack did not come back: " + e.getMessage());
            throw e;
        }
        Instant backAt = Instant.now();
        LOG.info(
                "Whole stack back {} s after the crash",
                Duration.between(crashAt, backAt).toSeconds());
        figures.add(recovery(fault, Duration.ZERO, Optional.of(Duration.between(crashAt, backAt)), backAt, rowsNow()));
        if (broker.isAlive()) {
            fail(fault, "the leftover MQTT broker (pid " + broker.pid() + ") still runs after the new start");
        }
        if (!read(launcher.log()).contains("is still running from an earlier run of this data folder")) {
            fail(fault, "the new launcher did not say that it stopped the leftover MQTT broker");
        }
        String trinoLog = read(settings.componentDirectory(FleetStack.TRINO).resolve("var/log/server.log"));
        if (count(trinoLog, "==== fleet launcher: starting trino") < 2) {
            fail(fault, "Trino's log was not appended to across the restart");
        }
    }

    /**
     * How long after {@code since} the stack works again end to end: the connector writes positions received after
     * {@code since} to Kafka (MQTT, Connect and Kafka work), and the pipeline commits rows to {@code fleet.positions}
     * beyond the {@code rowsBefore} there were (Kafka, the pipeline, S3 and the catalog work). The pipeline may still be
     * working off the backlog of the outage then; the final {@code fleet verify --wait} waits for that.
     */
    private FaultFigure recovery(
            String fault, Duration held, Optional<Duration> componentBack, Instant since, long rowsBefore) {
        KafkaInspector kafka = new KafkaInspector(settings.kafkaBootstrapServers());
        Optional<Duration> ingesting =
                awaitSince(since, fault, "positions received after it reach Kafka", () -> kafka.newestRecordTime(
                                Topics.RAW_POSITIONS)
                        .map(newest -> newest.isAfter(since))
                        .orElse(false));
        Optional<Duration> committing =
                awaitSince(since, fault, "the pipeline commits new rows to fleet.positions", () -> rows() > rowsBefore);
        FaultFigure figure = new FaultFigure(fault, held, componentBack, ingesting, committing);
        LOG.info("Recovered from {}: {}", fault, figure);
        return figure;
    }

    private Optional<Duration> awaitSince(
            Instant since, String fault, String what, java.util.concurrent.Callable<Boolean> condition) {
        try {
            await().atMost(RECOVERY_TIMEOUT)
                    .pollInterval(Duration.ofSeconds(1))
                    .ignoreExceptions()
                    .until(condition);
            return Optional.of(Duration.between(since, Instant.now()));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            fail(fault, "not within " + RECOVERY_TIMEOUT.toMinutes() + " min: " + what + "; " + evidence());
            return Optional.empty();
        }
    }

    /** Rows of this test's vehicles in fleet.positions. */
    private long rows() throws SQLException {
        return LedgerCheck.rows(settings, PREFIX);
    }

    /** {@link #rows()}, retried while Trino or S3 are still coming back. */
    private long rowsNow() {
        long[] rows = {0};
        await().atMost(RECOVERY_TIMEOUT)
                .pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions()
                .until(() -> {
                    rows[0] = rows();
                    return true;
                });
        return rows[0];
    }

    private void fail(String fault, String what) {
        LOG.error("FAULT NOT SURVIVED: {}: {}", fault, what);
        failures.add(fault + ": " + what);
    }

    private void verifyAndReport(LedgerPublishers publishers, String beforeRestart, Duration elapsed) throws Exception {
        // The pipeline may still be working off the outages' backlog: verify waits until it has committed past it.
        FleetCommand.Result verify = FleetCommand.run(settings, "verify", "--wait", "10m", "--json");
        FleetCommand.Result verifyText = FleetCommand.run(settings, "verify");
        JsonNode report = JSON.readTree(verify.out());

        Set<FixKey> acknowledged = publishers.acknowledged();
        LedgerCheck.ExactlyOnce exactlyOnce = LedgerCheck.exactlyOnce(settings, PREFIX, acknowledged);
        List<String> missing = exactlyOnce.missing();
        List<String> duplicated = exactlyOnce.duplicated();

        String text = figuresText(publishers, acknowledged.size(), report, beforeRestart, elapsed, missing, duplicated)
                + System.lineSeparator() + "fleet verify (text):" + System.lineSeparator() + verifyText.out();
        LOG.info("{}{}", System.lineSeparator(), text);
        Files.writeString(Path.of("target", "fault-injection-figures.txt"), text, StandardCharsets.UTF_8);

        assertThat(failures).as("faults the stack did not recover from").isEmpty();
        assertThat(verify.exitCode()).as("fleet verify: %s", verify).isZero();
        assertThat(report.at("/lost/total").asLong())
                .as("lost according to fleet verify")
                .isZero();
        assertThat(report.at("/duplicated/keys").asLong())
                .as("duplicated according to fleet verify")
                .isZero();
        assertThat(acknowledged).as("acknowledged positions").hasSizeGreaterThan(1000);
        assertThat(missing)
                .as("acknowledged positions missing from fleet.positions")
                .isEmpty();
        assertThat(duplicated)
                .as("acknowledged positions stored more than once")
                .isEmpty();
    }

    private String figuresText(
            LedgerPublishers publishers,
            int acknowledged,
            JsonNode report,
            String beforeRestart,
            Duration elapsed,
            List<String> missing,
            List<String> duplicated) {
        StringBuilder text = new StringBuilder();
        line(text, "Fault-injection figures (FaultInjectionIT, %s)", Instant.now());
        line(
                text,
                "Published %,d positions from %d MQTT clients (QoS 1, %d vehicles each), %,d acknowledged, %,d not"
                        + " acknowledged; test ran %d s",
                publishers.published(),
                CLIENTS,
                VEHICLES_PER_CLIENT,
                acknowledged,
                publishers.unacknowledged(),
                elapsed.toSeconds());
        line(
                text,
                "%-34s %6s %14s %28s %26s",
                "fault",
                "held",
                "process back",
                "new positions in Kafka after",
                "pipeline commits rows after");
        for (FaultFigure figure : figures) {
            line(
                    text,
                    "%-34s %6s %14s %28s %26s",
                    figure.fault(),
                    figure.held().isZero() ? "-" : figure.held().toSeconds() + " s",
                    seconds(figure.componentBack()),
                    figure.ingesting().map(value -> value.toSeconds() + " s").orElse("NOT RECOVERED"),
                    figure.committing().map(value -> value.toSeconds() + " s").orElse("NOT RECOVERED"));
        }
        line(text, "Before the whole-stack restart: %s", beforeRestart);
        line(
                text,
                "fleet verify: raw records %,d (distinct keys %,d), rows %,d, resends dropped %,d, lost %,d,"
                        + " duplicated %,d, Redis matching %,d of %,d",
                report.at("/raw/records").asLong(),
                report.at("/raw/distinct_keys").asLong(),
                report.at("/positions/rows").asLong(),
                report.at("/raw/resends_dropped").asLong(),
                report.at("/lost/total").asLong(),
                report.at("/duplicated/keys").asLong(),
                report.at("/redis/matching").asLong(),
                report.at("/redis/vehicles").asLong());
        line(
                text,
                "Acknowledged positions missing from fleet.positions: %,d %s; stored more than once: %,d %s",
                missing.size(),
                missing.stream().limit(10).toList(),
                duplicated.size(),
                duplicated.stream().limit(10).toList());
        line(text, "Faults not survived: %s", failures.isEmpty() ? "none" : String.join("; ", failures));
        return text.toString();
    }

    /** Supervisor restarts per component and the Flink job's own restarts, before the whole stack restarts. */
    private String restartSummary() {
        String supervisor = launcher.status().map(StackStatus::components).orElse(List.of()).stream()
                .filter(status -> status.restarts() > 0)
                .map(status -> status.name() + " " + status.restarts())
                .collect(Collectors.joining(", "));
        return "supervisor restarts: " + (supervisor.isEmpty() ? "none" : supervisor) + "; Flink job restarts"
                + " (numRestarts): " + flinkRestarts();
    }

    private String flinkRestarts() {
        OptionalLong restarts = new FlinkInspector(StackFlinkRest.client(settings))
                .pipelineRestarts()
                .numRestarts();
        return restarts.isPresent() ? Long.toString(restarts.getAsLong()) : "unknown";
    }

    /** What a failed recovery looked like: component states, the connector's status, the logs' ends. */
    private String evidence() {
        StringBuilder evidence = new StringBuilder("stack: ");
        for (ComponentStatus status :
                launcher.status().map(StackStatus::components).orElse(List.of())) {
            evidence.append(status.name())
                    .append('=')
                    .append(status.state())
                    .append('/')
                    .append(status.restarts())
                    .append(' ');
        }
        try {
            evidence.append("; connector status: ")
                    .append(ConnectAccess.monitor(settings)
                            .connectorStatus(FleetStack.CONNECTOR_NAME)
                            .orElse("not registered"));
        } catch (RuntimeException e) {
            evidence.append("; connector status unavailable: ").append(e.getMessage());
        }
        for (String component : List.of(FleetStack.CONNECT, FleetStack.PIPELINE)) {
            Path log = settings.logFile(component);
            evidence.append(System.lineSeparator())
                    .append("last lines of ")
                    .append(log)
                    .append(':')
                    .append(System.lineSeparator())
                    .append(tail(read(log), 25));
        }
        return evidence.toString();
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }

    private static String tail(String text, int lines) {
        List<String> all = text.lines().toList();
        return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    private static int count(String text, String needle) {
        return (int) text.lines().filter(line -> line.startsWith(needle)).count();
    }

    private static void line(StringBuilder text, String format, Object... arguments) {
        text.append(String.format(Locale.ROOT, format, arguments)).append(System.lineSeparator());
    }

    /**
     * One fault and how the stack came through it; empty times were not reached within the recovery timeout.
     *
     * @param held how long the fault lasted (a pause, the whole stack's stop); zero for a kill
     * @param componentBack from the fault until the supervisor (or the new start) had the process healthy again
     * @param ingesting from the end of the fault until positions received afterwards were in Kafka
     * @param committing from the end of the fault until the pipeline committed new rows to fleet.positions
     */
    private record FaultFigure(
            String fault,
            Duration held,
            Optional<Duration> componentBack,
            Optional<Duration> ingesting,
            Optional<Duration> committing) {
        @Override
        public String toString() {
            return "process back " + seconds(componentBack) + ", ingesting " + seconds(ingesting) + ", committing "
                    + seconds(committing);
        }
    }

    private static String seconds(Optional<Duration> duration) {
        return duration.map(value -> value.toSeconds() + " s").orElse("-");
    }
}
