package io.fleetlake.stack;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.catalog.CatalogAuthentication;
import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.operations.health.HealthProbes;
import io.fleetlake.operations.health.HealthSources;
import io.fleetlake.operations.inspect.ConnectInspector;
import io.fleetlake.redis.RedisRole;
import io.fleetlake.stack.cluster.StackFlinkRest;
import io.fleetlake.stack.identity.StackCatalogIdentity;
import io.fleetlake.stack.identity.StackServiceSecrets;
import java.net.URI;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/** The embedded stack's servers as {@link HealthSources}, with a probe per component like the launcher's own. */
public final class StackHealthSources {
    /** The consumer groups whose lag is reported ({@code health.consumer-groups}, comma-separated). */
    public static final String CONSUMER_GROUPS = "health.consumer-groups";

    /** The pipeline's consumer group, unless {@code pipeline.consumer-group} names another. */
    public static final String DEFAULT_PIPELINE_GROUP = "fleet-pipeline";
    /** As long as the other HTTP probes wait. */
    private StackHealthSources() {}

    public static HealthSources of(StackSettings settings, ConfigSource configuration) {
        String host = settings.host();
        String pipelineGroup = configuration.string("pipeline.consumer-group", DEFAULT_PIPELINE_GROUP);
        List<String> groups = configuration
                .string(CONSUMER_GROUPS)
                .map(value -> Arrays.stream(value.split(","))
                        .map(String::trim)
                        .filter(group -> !group.isEmpty())
                        .toList())
                .orElse(List.of(pipelineGroup));
        return new HealthSources(
                settings.kafkaBootstrapServers(),
                // The embedded broker has no SASL listener.
                Optional.empty(),
                groups,
                settings.redisUri(RedisRole.MONITOR),
                settings.catalogUri(),
                StackCatalogIdentity.of(settings).credentialIfCreated(CatalogRole.READER),
                connectUri(settings),
                Optional.of(StackServiceSecrets.of(settings).connectMonitor()),
                FleetStack.CONNECTOR_NAME,
                StackFlinkRest.client(settings),
                Optional.of(metricsUri(host, settings.port(StackPort.MAINTENANCE))),
                Optional.of(metricsUri(host, settings.port(StackPort.MQTT_METRICS))),
                probes(settings));
    }

    /** Every component of the embedded stack and the probe that tells whether it is up. */
    public static Map<String, BooleanSupplier> probes(StackSettings settings) {
        String host = settings.host();
        Map<String, BooleanSupplier> probes = new LinkedHashMap<>();
        probes.put(FleetStack.KAFKA, HealthProbes.kafka(settings.kafkaBootstrapServers()));
        probes.put(FleetStack.S3, http(settings.s3Endpoint() + "/healthz"));
        probes.put(FleetStack.MQTT, HealthProbes.tcp(host, settings.port(StackPort.MQTT)));
        probes.put(FleetStack.REDIS, HealthProbes.redis(URI.create(settings.redisUri(RedisRole.MONITOR))));
        probes.put(FleetStack.CATALOG, http(settings.catalogUri() + CatalogAuthentication.HEALTH_PATH));
        ConnectInspector connect = new ConnectInspector(
                connectUri(settings),
                Optional.of(StackServiceSecrets.of(settings).connectMonitor()));
        probes.put(FleetStack.CONNECT, connect::answers);
        probes.put(FleetStack.PLANNING, http(settings.planningUri() + "/healthz"));
        probes.put(FleetStack.PIPELINE, StackFlinkRest.client(settings, HealthProbes.PROBE_TIMEOUT)::reachable);
        probes.put(FleetStack.TRINO, http("http://" + host + ":" + settings.port(StackPort.TRINO) + "/v1/info"));
        probes.put(FleetStack.DASHBOARD, http(settings.dashboardUri() + "/healthz"));
        probes.put(
                FleetStack.MAINTENANCE,
                http(metricsUri(host, settings.port(StackPort.MAINTENANCE)).toString()));
        probes.put(
                FleetStack.EXPORTER,
                http(metricsUri(host, settings.port(StackPort.EXPORTER)).toString()));
        return probes;
    }

    public static String connectUri(StackSettings settings) {
        return "http://" + settings.host() + ":" + settings.port(StackPort.CONNECT);
    }

    public static URI metricsUri(String host, int port) {
        return URI.create("http://" + host + ":" + port + "/metrics");
    }

    private static BooleanSupplier http(String uri) {
        return HealthProbes.http(URI.create(uri), body -> true);
    }
}
