package io.fleetlake.deployment;

import io.fleetlake.catalog.CatalogServerConfig;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.config.MetricsEndpointConfig;
import io.fleetlake.dashboard.DashboardConfig;
import io.fleetlake.dashboard.health.DashboardHealthConfig;
import io.fleetlake.dashboard.security.DashboardSecurityConfig;
import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.ingest.ConnectWorkerConfig;
import io.fleetlake.maintenance.MaintenanceConfig;
import io.fleetlake.operations.exporter.ExporterConfig;
import io.fleetlake.simulator.FleetSimulatorConfig;
import io.fleetlake.simulator.planning.PlanningApiConfig;
import io.fleetlake.spark.geocode.GeocodeConfig;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Our services in docker-compose.yml and how each reads its configuration: the same {@code from(ConfigSource)} its
 * main class calls, so that a check sees exactly the keys the running process would look up.
 */
final class ServiceConfigurations {
    static final String CATALOG = "catalog";
    static final String CONNECT = "connect";
    static final String PLANNING = "planning";
    static final String SIMULATOR = "simulator";
    static final String FLINK_JOB_MANAGER = "flink-jobmanager";
    static final String FLINK_TASK_MANAGER = "flink-taskmanager";
    static final String DASHBOARD = "dashboard";
    static final String TABLE_MAINTENANCE = "table-maintenance";
    static final String GEOCODE = "geocode";
    static final String TRINO = "trino";
    static final String MOSQUITTO = "mosquitto";
    static final String MINIO = "minio";
    static final String REDIS = "redis";
    static final String FLEET_EXPORTER = "fleet-exporter";
    static final String KAFKA = "kafka";

    /** The prefix of our images' names. */
    static final String OUR_IMAGE_PREFIX = "fleetlake/";

    /**
     * Services of ours that are given no {@code FLEET_*} configuration: the job runs in the JobManager; the Kafka image
     * is the official one plus the JMX exporter agent.
     */
    static final Set<String> WITHOUT_FLEET_CONFIGURATION = Set.of(FLINK_TASK_MANAGER, KAFKA);

    private static final Map<String, Function<ConfigSource, ?>> READERS = Map.of(
            // The catalog and the dashboard read their metrics endpoint (and the dashboard its health panel's source)
            // beside their own configuration, as their main classes do; the component's own is returned.
            CATALOG,
                    source -> {
                        MetricsEndpointConfig.from(source, CATALOG);
                        return CatalogServerConfig.from(source);
                    },
            CONNECT, ConnectWorkerConfig::from,
            PLANNING, PlanningApiConfig::from,
            SIMULATOR, FleetSimulatorConfig::from,
            // The job's main class in the cluster (FleetPipelineClusterMain) reads the same configuration; checkpoints
            // go to the cluster's storage (FLINK_PROPERTIES), so pipeline.checkpoint-dir is not needed there.
            FLINK_JOB_MANAGER, FleetPipelineConfig::from,
            DASHBOARD,
                    source -> {
                        MetricsEndpointConfig.from(source, DASHBOARD);
                        DashboardHealthConfig.from(source);
                        DashboardSecurityConfig.from(source);
                        return DashboardConfig.from(source);
                    },
            TABLE_MAINTENANCE, MaintenanceConfig::from,
            GEOCODE, source -> GeocodeConfig.from(source, Clock.systemUTC()),
            FLEET_EXPORTER, ExporterConfig::from);

    private ServiceConfigurations() {}

    static Set<String> servicesWithReaders() {
        return READERS.keySet();
    }

    /**
     * Builds the configuration of {@code service} from exactly the given environment, as its process would at start.
     */
    static Object read(String service, ConfigSource source) {
        Function<ConfigSource, ?> reader = READERS.get(service);
        if (reader == null) {
            throw new IllegalArgumentException("No configuration reader for service " + service
                    + ": add its config class's from(ConfigSource) to ServiceConfigurations");
        }
        return reader.apply(source);
    }
}
