package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.errors.NotFoundException;
import org.apache.kafka.connect.health.ConnectClusterState;
import org.apache.kafka.connect.health.ConnectorHealth;
import org.apache.kafka.connect.health.TaskState;
import org.apache.kafka.connect.rest.ConnectRestExtension;
import org.apache.kafka.connect.rest.ConnectRestExtensionContext;

/**
 * Adds {@code GET /ingest/health} to the worker's REST API: 200 when ingestion works (see {@link IngestHealth} for the
 * rules), 503 when it does not, with a JSON body listing the problems and each local task's progress.
 *
 * <p>Registered through {@code rest.extension.classes}; configured from the worker properties
 * {@value #CONNECTOR_NAME} and {@value #MAX_PENDING_AGE_MILLIS}, which {@link ConnectWorkerConfig#workerProperties()}
 * sets.
 */
public final class IngestHealthRestExtension implements ConnectRestExtension {
    static final String CONNECTOR_NAME = "fleet.ingest.connector-name";
    static final String MAX_PENDING_AGE_MILLIS = "fleet.ingest.health-max-pending-age-ms";

    private volatile String connectorName;
    private volatile Duration maxPendingAge;

    @Override
    public void configure(Map<String, ?> configs) {
        Object name = configs.get(CONNECTOR_NAME);
        Object age = configs.get(MAX_PENDING_AGE_MILLIS);
        if (name == null || age == null) {
            throw new IllegalArgumentException("The ingest health extension needs the worker properties "
                    + CONNECTOR_NAME + " and " + MAX_PENDING_AGE_MILLIS + "; start the worker through ConnectWorker");
        }
        connectorName = name.toString();
        maxPendingAge = Duration.ofMillis(Long.parseLong(age.toString()));
    }

    /**
     * Registers the resource through a {@link Feature}: Jersey checks every instance registered directly for provider
     * interfaces and warns about a plain resource, which it serves all the same.
     */
    @Override
    public void register(ConnectRestExtensionContext context) {
        Resource resource = new Resource(context.clusterState(), connectorName, maxPendingAge);
        context.configurable().register((Feature) features -> {
            features.register(resource);
            return true;
        });
    }

    @Override
    public void close() {
        // Nothing to release: the resource holds no resources of its own.
    }

    @Override
    public String version() {
        return ConnectorVersion.current();
    }

    /** The connector's status as the REST API shows it, from the worker's view of the cluster. */
    static Optional<ConnectorStatus> status(ConnectClusterState cluster, String connectorName) {
        ConnectorHealth health;
        try {
            health = cluster.connectorHealth(connectorName);
        } catch (NotFoundException e) {
            return Optional.empty();
        }
        List<ConnectorStatus.TaskStatus> tasks = new ArrayList<>();
        for (TaskState task : health.tasksState().values()) {
            tasks.add(new ConnectorStatus.TaskStatus(task.taskId(), task.state(), text(task.traceMessage())));
        }
        tasks.sort((first, second) -> Integer.compare(first.id(), second.id()));
        return Optional.of(new ConnectorStatus(
                connectorName,
                health.connectorState().state(),
                text(health.connectorState().traceMessage()),
                tasks));
    }

    private static Optional<String> text(String value) {
        return Optional.ofNullable(value).filter(trace -> !trace.isEmpty());
    }

    /** The JAX-RS resource; public for Jersey. */
    @Path("/ingest")
    public static final class Resource {
        private final ConnectClusterState cluster;
        private final String connectorName;
        private final Duration maxPendingAge;

        Resource(ConnectClusterState cluster, String connectorName, Duration maxPendingAge) {
            this.cluster = requireNonNull(cluster, "cluster is null");
            this.connectorName = requireNonNull(connectorName, "connectorName is null");
            this.maxPendingAge = requireNonNull(maxPendingAge, "maxPendingAge is null");
        }

        @GET
        @Path("/health")
        @Produces(MediaType.APPLICATION_JSON)
        public Response health() {
            Optional<ConnectorStatus> status = status(cluster, connectorName);
            int expectedTasks =
                    status.map(current -> expectedTasks(current.tasks().size())).orElse(0);
            IngestHealth health = IngestHealth.evaluate(
                    connectorName, expectedTasks, status, IngestMetrics.read(connectorName), maxPendingAge);
            return Response.status(health.healthy() ? Response.Status.OK : Response.Status.SERVICE_UNAVAILABLE)
                    .entity(health.toJson())
                    .build();
        }

        private int expectedTasks(int reported) {
            String configured = cluster.connectorConfig(connectorName).get("tasks.max");
            return configured == null ? Math.max(reported, 1) : Integer.parseInt(configured);
        }
    }
}
