package io.fleetlake.bench.peer;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.common.process.FreePorts;
import io.fleetlake.connect.client.ConnectRestClient;
import io.fleetlake.connect.client.ConnectRestClient.ConnectRestException;
import io.fleetlake.model.Tables;
import io.fleetlake.model.Topics;
import io.fleetlake.operations.health.HealthProbes;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.component.ProcessComponent;
import io.fleetlake.stack.process.FleetHome;
import io.fleetlake.stack.process.JavaCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Iceberg Kafka Connect sink ({@code org.apache.iceberg:iceberg-kafka-connect}) in a Connect worker process of its
 * own ({@link PeerWorkerMain}, started from this module's build output, {@code -Xmx1g} like the pipeline), consuming
 * {@code gps.raw.positions} into {@link TwinTable} with the pipeline's checkpoint interval as its commit interval.
 */
public final class PeerSink implements AutoCloseable {
    public static final String CONTROL_TOPIC = "fleet-bench-peer-control";
    private static final String MAIN_CLASS = PeerWorkerMain.class.getName();
    private static final Duration POLL_INTERVAL = Duration.ofMillis(250);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Logger LOG = LoggerFactory.getLogger(PeerSink.class);

    private final StackSettings stack;
    private final String connectorName;
    private final Duration commitInterval;
    private final int tasks;
    private final ProcessComponent process;
    private final URI restUri;
    /** The peer's worker is the Iceberg sink's own, without the ingest worker's authentication. */
    private final ConnectRestClient rest;

    /**
     * @param connectorName a name not used before in this stack: a connector's offsets and statuses outlive it
     * @param tasks sink tasks, one per partition of the raw topic
     */
    public PeerSink(StackSettings stack, FleetHome home, String connectorName, Duration commitInterval, int tasks) {
        this.stack = requireNonNull(stack, "stack is null");
        this.connectorName = requireNonNull(connectorName, "connectorName is null");
        this.commitInterval = requireNonNull(commitInterval, "commitInterval is null");
        this.tasks = tasks;
        int port = FreePorts.pick(stack.hostAddress());
        this.restUri = URI.create("http://" + stack.host() + ":" + port);
        this.rest = ConnectRestClient.anonymous(restUri, Duration.ofSeconds(30));
        Path directory = stack.componentDirectory("bench-peer");
        Path configFile = directory.resolve("peer-worker.properties");
        Path logFile = stack.logFile("bench-peer");
        this.process = ProcessComponent.builder("bench-peer")
                .command(() -> {
                    writeConfiguration(
                            configFile,
                            Map.of(
                                    PeerWorkerConfig.HOST, stack.host(),
                                    PeerWorkerConfig.PORT, Integer.toString(port),
                                    PeerWorkerConfig.BOOTSTRAP_SERVERS, stack.kafkaBootstrapServers()));
                    return new JavaCommand(
                                    JavaCommand.currentJavaHome(),
                                    List.of("-Xmx1g"),
                                    home.launchClasspath("bench", "bench"),
                                    MAIN_CLASS,
                                    List.of("--config", configFile.toString()))
                            .toCommandLine();
                })
                .workingDirectory(directory)
                .logFile(logFile)
                .healthProbe(HealthProbes.logContains(logFile, PeerWorkerMain.READY_LINE))
                .listensOn(port)
                .endpoint(restUri.toString())
                .build();
    }

    /** The consumer group Connect gives the sink's tasks; set its offsets before the sink starts to choose the start. */
    public String consumerGroup() {
        return "connect-" + connectorName;
    }

    /** Starts the worker process and waits for its REST API. */
    public void startWorker(Duration timeout) throws InterruptedException, TimeoutException {
        process.start();
        Instant deadline = Instant.now().plus(timeout);
        while (!process.isHealthy()) {
            Optional<String> failure = process.failure();
            if (failure.isPresent()) {
                throw new IllegalStateException(failure.get());
            }
            if (Instant.now().isAfter(deadline)) {
                throw new TimeoutException("The peer's Connect worker did not start within " + timeout.toSeconds()
                        + " s; see " + process.logFile().orElseThrow());
            }
            TimeUnit.MILLISECONDS.sleep(POLL_INTERVAL.toMillis());
        }
    }

    /**
     * Registers the sink and waits until it and all its tasks run.
     *
     * @return when they were seen running
     */
    public Instant registerAndAwaitRunning(Duration timeout) throws InterruptedException, TimeoutException {
        Instant deadline = Instant.now().plus(timeout);
        String lastAnswer = "";
        while (true) {
            try {
                rest.putConnectorConfig(connectorName, connectorProperties());
                break;
            } catch (ConnectRestException e) {
                lastAnswer = e.getMessage();
                if (e.statusCode() == 400) {
                    throw new IllegalStateException("Connect refused the sink's configuration: " + lastAnswer, e);
                }
            }
            checkDeadline(deadline, "register the sink (last answer " + lastAnswer + ")");
            TimeUnit.MILLISECONDS.sleep(POLL_INTERVAL.toMillis());
        }
        while (true) {
            Optional<String> answer = Optional.empty();
            try {
                answer = rest.connectorStatus(connectorName);
            } catch (ConnectRestException e) {
                lastAnswer = e.getMessage();
            }
            if (answer.isPresent()) {
                JsonNode status = parse(answer.get());
                if (status.path("connector").path("state").asText().equals("FAILED")
                        || status.path("tasks").findValuesAsText("state").contains("FAILED")) {
                    throw new IllegalStateException("The sink failed: " + answer.get());
                }
                List<String> taskStates = status.path("tasks").findValuesAsText("state");
                if (status.path("connector").path("state").asText().equals("RUNNING")
                        && taskStates.size() == tasks
                        && taskStates.stream().allMatch("RUNNING"::equals)) {
                    return Instant.now();
                }
                lastAnswer = answer.get();
            }
            checkDeadline(
                    deadline, "see the sink and its " + tasks + " tasks RUNNING (last status " + lastAnswer + ")");
            TimeUnit.MILLISECONDS.sleep(POLL_INTERVAL.toMillis());
        }
    }

    /** The sink's configuration, as registered. */
    public Map<String, String> connectorProperties() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("connector.class", "org.apache.iceberg.connect.IcebergSinkConnector");
        properties.put("tasks.max", Integer.toString(tasks));
        properties.put("topics", Topics.RAW_POSITIONS);
        properties.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
        properties.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        properties.put("value.converter.schemas.enable", "false");
        properties.put("iceberg.tables", Tables.qualified(TwinTable.NAME));
        properties.put("iceberg.tables.auto-create-enabled", "false");
        properties.put("iceberg.control.topic", CONTROL_TOPIC);
        properties.put("iceberg.control.commit.interval-ms", Long.toString(commitInterval.toMillis()));
        properties.put("iceberg.kafka.bootstrap.servers", stack.kafkaBootstrapServers());
        properties.put("iceberg.catalog.type", "rest");
        TwinTable.catalogProperties(stack).forEach((key, value) -> properties.put("iceberg.catalog." + key, value));
        return properties;
    }

    public Optional<ProcessHandle> processHandle() {
        return process.processHandle();
    }

    /**
     * Removes the sink, so that it does not start again with the worker's next start, and stops the worker process.
     */
    @Override
    public void close() {
        try {
            if (process.isHealthy()) {
                rest.deleteConnector(connectorName);
            }
        } catch (UncheckedIOException | ConnectRestException e) {
            LOG.warn("Could not remove the sink {} before stopping its worker: {}", connectorName, e.getMessage());
        } finally {
            process.stop();
        }
    }

    @Override
    public String toString() {
        return "the Iceberg Kafka Connect sink's worker at " + restUri;
    }

    private static JsonNode parse(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException("Connect answered something that is not JSON: " + body, e);
        }
    }

    private static void checkDeadline(Instant deadline, String action) throws TimeoutException {
        if (Instant.now().isAfter(deadline)) {
            throw new TimeoutException("Could not " + action + " in time");
        }
    }

    private static void writeConfiguration(Path file, Map<String, String> configuration) {
        try {
            Files.createDirectories(file.getParent());
            StringBuilder text = new StringBuilder("# Written by fleet bench for the peer's Connect worker.\n");
            configuration.forEach(
                    (key, value) -> text.append(key).append('=').append(value).append('\n'));
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }
}
