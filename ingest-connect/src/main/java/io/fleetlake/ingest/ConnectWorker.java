package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.KafkaSaslCredentials;
import io.fleetlake.connect.client.ConnectRestClient;
import io.fleetlake.connect.client.ConnectRestClient.ConnectRestException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.connect.cli.ConnectDistributed;
import org.apache.kafka.connect.runtime.AbstractStatus;
import org.apache.kafka.connect.runtime.Connect;
import org.apache.kafka.connect.runtime.distributed.DistributedHerder;
import org.apache.kafka.connect.storage.StatusBackingStore;
import org.apache.kafka.connect.util.ConnectorTaskId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka Connect distributed worker running in this JVM, with the MQTT source connector registered and running.
 *
 * <p>{@link #start()} waits for Kafka, starts the worker (REST API on {@code connect.host:connect.port}), registers
 * the connector idempotently with {@code PUT /connectors/<name>/config} and returns once the connector and all its
 * tasks are RUNNING, or fails after {@code connect.startup-timeout} with the reason. {@link #close()} stops the
 * worker; tasks stop without acknowledging uncommitted MQTT messages, which the broker therefore redelivers.
 */
public final class ConnectWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectWorker.class);
    private static final Duration RETRY_INTERVAL = Duration.ofMillis(500);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final ConnectWorkerConfig config;
    private final ScheduledExecutorService supervisor;
    private volatile Connect<DistributedHerder> connect;
    private volatile ConnectRestClient rest;
    private volatile ConnectorSupervisor connectorSupervisor;

    public ConnectWorker(ConnectWorkerConfig config) {
        this.config = requireNonNull(config, "config is null");
        this.supervisor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "connect-worker-supervisor");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts the worker and blocks until the connector and its tasks are RUNNING. */
    public void start() {
        if (connect != null) {
            throw new IllegalStateException("Connect worker already started");
        }
        Instant deadline = Instant.now().plus(config.startupTimeout());
        awaitKafka(deadline);
        LOG.info(
                "Starting Kafka Connect worker of group {} with its REST API on {}:{}",
                config.groupId(),
                config.host(),
                config.port());
        connect = new ConnectDistributed().startConnect(config.workerProperties());
        // The worker logs in to its own REST API as the admin principal, which may register and restart.
        rest = ConnectRestClient.create(restUri(), REQUEST_TIMEOUT, config.adminCredentials());
        registerConnector(deadline);
        // A registration succeeds only once this worker has joined its group: statuses written by this process carry
        // this generation or a later one, the ones left in the status topic by an earlier process an older one.
        awaitRunning(deadline, connect.herder().generation());
        connectorSupervisor = new ConnectorSupervisor(
                config.connectorName(),
                config.tasks(),
                config.healthMaxPendingAge().multipliedBy(2),
                new RestTarget(),
                Clock.systemUTC());
        supervisor.scheduleWithFixedDelay(
                this::supervise,
                config.supervisionInterval().toMillis(),
                config.supervisionInterval().toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /**
     * Whether ingestion works in this worker, by the rules of {@link IngestHealth}; the same verdict as
     * {@code GET /ingest/health}.
     */
    public IngestHealth health() {
        started();
        Optional<ConnectorStatus> status = connectorStatusFromRest();
        return IngestHealth.evaluate(
                config.connectorName(),
                config.tasks(),
                status,
                IngestMetrics.read(config.connectorName()),
                config.healthMaxPendingAge());
    }

    /** Restarts of the connector or its tasks by this worker's supervisor since the start. */
    public long supervisorRestarts() {
        ConnectorSupervisor current = connectorSupervisor;
        return current == null ? 0 : current.restarts();
    }

    /** The port the REST API is bound to (the chosen one when {@code connect.port} is 0). */
    public int port() {
        return restUri().getPort();
    }

    /** The REST API, such as {@code http://127.0.0.1:8083/}. */
    public URI restUri() {
        return started().rest().advertisedUrl();
    }

    /** The connector's current status; the health check is {@link ConnectorStatus#running()}. */
    public Optional<ConnectorStatus> connectorStatus() {
        started();
        return connectorStatusFromRest();
    }

    @Override
    public void close() {
        supervisor.shutdownNow();
        Connect<DistributedHerder> current = connect;
        if (current != null) {
            current.stop();
        }
    }

    private Optional<ConnectorStatus> connectorStatusFromRest() {
        return rest.connectorStatus(config.connectorName()).map(ConnectorStatus::fromJson);
    }

    private Connect<DistributedHerder> started() {
        Connect<DistributedHerder> current = connect;
        if (current == null) {
            throw new IllegalStateException("Connect worker not started");
        }
        return current;
    }

    /** Re-sending an unchanged configuration would restart the connector while it starts; it is skipped. */
    private boolean alreadyRegistered(Map<String, String> connectorProperties) {
        Map<String, String> expected = new HashMap<>(connectorProperties);
        expected.put("name", config.connectorName());
        return rest.connectorConfig(config.connectorName())
                .map(expected::equals)
                .orElse(false);
    }

    private void awaitKafka(Instant deadline) {
        Duration remaining = remaining(deadline);
        LOG.info("Waiting up to {} s for Kafka at {}", remaining.toSeconds(), config.bootstrapServers());
        Map<String, Object> adminProperties = new HashMap<>(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                config.bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                (int) Math.min(Integer.MAX_VALUE, remaining.toMillis()),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                (int) Math.min(REQUEST_TIMEOUT.toMillis(), remaining.toMillis())));
        // The worker's own login: the broker of a deployment refuses anonymous clients.
        adminProperties.putAll(KafkaSaslCredentials.clientProperties(config.kafkaCredentials()));
        try (Admin admin = Admin.create(adminProperties)) {
            String clusterId = admin.describeCluster().clusterId().get(remaining.toMillis(), TimeUnit.MILLISECONDS);
            LOG.info("Kafka at {} is reachable (cluster {})", config.bootstrapServers(), clusterId);
        } catch (ExecutionException e) {
            throw kafkaUnreachable(remaining, e.getCause().toString(), e);
        } catch (TimeoutException e) {
            throw kafkaUnreachable(remaining, "no answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for Kafka", e);
        }
    }

    /** One supervision round; an unreachable REST API or Kafka is logged and tried again at the next round. */
    private void supervise() {
        try {
            connectorSupervisor.check();
        } catch (RuntimeException e) {
            LOG.warn("Cannot check the status of connector {}: {}", config.connectorName(), e.getMessage());
        }
    }

    /** The supervisor's view: the REST API for status and restarts, JMX for the progress of the local tasks. */
    private final class RestTarget implements ConnectorSupervisor.Target {
        @Override
        public Optional<ConnectorStatus> status() {
            return connectorStatusFromRest();
        }

        @Override
        public Map<Integer, TaskProgress> progress() {
            return IngestMetrics.read(config.connectorName());
        }

        @Override
        public void register() {
            rest.putConnectorConfig(config.connectorName(), config.connectorProperties());
        }

        @Override
        public void restartConnectorAndTasks() {
            rest.restartConnectorAndTasks(config.connectorName());
        }

        @Override
        public void restartTask(int task) {
            rest.restartTask(config.connectorName(), task);
        }
    }

    private IllegalStateException kafkaUnreachable(Duration waited, String reason, Exception cause) {
        return new IllegalStateException(
                "Kafka at " + config.bootstrapServers() + " is unreachable after " + waited.toSeconds() + " s ("
                        + reason + "). Start Kafka first or fix " + ConnectWorkerConfig.BOOTSTRAP_SERVERS,
                cause);
    }

    private void registerConnector(Instant deadline) {
        Map<String, String> connectorProperties = config.connectorProperties();
        while (true) {
            try {
                if (alreadyRegistered(connectorProperties)) {
                    LOG.info("Connector {} is registered with this configuration", config.connectorName());
                    return;
                }
                boolean created = rest.putConnectorConfig(config.connectorName(), connectorProperties);
                LOG.info(
                        "{} connector {} with {} task(s)",
                        created ? "Registered" : "Updated the configuration of",
                        config.connectorName(),
                        config.tasks());
                return;
            } catch (ConnectRestException e) {
                if (!e.retriable()) {
                    throw new IllegalStateException(
                            "Connect refused the configuration of connector " + config.connectorName() + ": "
                                    + e.getMessage(),
                            e);
                }
                retryOrFail(deadline, "register connector " + config.connectorName(), e);
            } catch (UncheckedIOException e) {
                retryOrFail(deadline, "register connector " + config.connectorName(), e);
            }
        }
    }

    /**
     * Waits for RUNNING as the REST API reports it, counting only statuses written by this process: right after a
     * restart the status topic still holds the previous process's RUNNING (or FAILED) under the same worker id.
     */
    private void awaitRunning(Instant deadline, int registrationGeneration) {
        while (true) {
            Optional<ConnectorStatus> status = Optional.empty();
            try {
                status = connectorStatusFromRest();
            } catch (ConnectRestException | UncheckedIOException e) {
                LOG.debug("Status of connector {} not available yet: {}", config.connectorName(), e.getMessage());
            }
            if (status.isPresent() && writtenSince(registrationGeneration)) {
                ConnectorStatus current = status.get();
                if (current.failed()) {
                    throw new IllegalStateException("Connector " + config.connectorName() + " failed ("
                            + current.summary() + "): " + current.firstTrace().orElse("no trace"));
                }
                if (current.running() && current.tasks().size() == config.tasks()) {
                    LOG.info("Connector {} is running: {}", config.connectorName(), current.summary());
                    return;
                }
            }
            String state = status.map(ConnectorStatus::summary).orElse("not registered yet");
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("Connector " + config.connectorName() + " is not RUNNING after "
                        + config.startupTimeout().toSeconds() + " s: " + state);
            }
            pause();
        }
    }

    private boolean writtenSince(int generation) {
        StatusBackingStore statuses = connect.herder().statusBackingStore();
        List<AbstractStatus<?>> current = new ArrayList<>();
        current.add(statuses.get(config.connectorName()));
        for (int task = 0; task < config.tasks(); task++) {
            current.add(statuses.get(new ConnectorTaskId(config.connectorName(), task)));
        }
        return current.stream().allMatch(status -> status != null && status.generation() >= generation);
    }

    private void retryOrFail(Instant deadline, String action, RuntimeException failure) {
        if (Instant.now().isAfter(deadline)) {
            throw new IllegalStateException(
                    "Could not " + action + " within " + config.startupTimeout().toSeconds() + " s: "
                            + failure.getMessage(),
                    failure);
        }
        LOG.debug("Could not {} yet, retrying: {}", action, failure.getMessage());
        pause();
    }

    private static void pause() {
        try {
            Thread.sleep(RETRY_INTERVAL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while starting the Connect worker", e);
        }
    }

    private static Duration remaining(Instant deadline) {
        Duration remaining = Duration.between(Instant.now(), deadline);
        return remaining.isNegative() ? Duration.ZERO : remaining;
    }
}
