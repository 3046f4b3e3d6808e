package io.fleetlake.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.PipelineMode;
import io.fleetlake.stack.cluster.ClusterJob;
import io.fleetlake.stack.cluster.FlinkClusterComponents;
import io.fleetlake.stack.cluster.FlinkClusterSettings;
import io.fleetlake.stack.component.Component;
import io.fleetlake.stack.component.ProcessComponent;
import io.fleetlake.stack.process.FleetHome;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FleetStackTest {
    private static final StackSettings SETTINGS = StackSettings.from(
            ConfigSource.of(
                    Map.of(StackSettings.FREE_PORTS, "true", FleetStack.PROMETHEUS_EXECUTABLE, "/usr/bin/prometheus")),
            Path.of("target", "data"));
    private static final FleetHome HOME = new FleetHome(Path.of("target", "no-checkout"), "0");

    @Test
    void theDefaultStackHasTheEmbeddedServersAndTheCatalogOnItsSqliteFile() {
        EmbeddedStack stack = FleetStack.create(SETTINGS, HOME);

        assertThat(stack.components())
                .extracting(Component::name)
                .containsExactlyInAnyOrder(
                        FleetStack.KAFKA,
                        FleetStack.KAFKA_TOPICS,
                        FleetStack.S3,
                        FleetStack.MQTT,
                        FleetStack.REDIS,
                        FleetStack.CATALOG,
                        FleetStack.CONNECT,
                        FleetStack.PLANNING,
                        FleetStack.PIPELINE,
                        FleetStack.TRINO,
                        FleetStack.DASHBOARD,
                        FleetStack.MAINTENANCE,
                        FleetStack.EXPORTER,
                        FleetStack.PROMETHEUS);
        assertThat(stack.component(FleetStack.CATALOG).dependencies()).isEqualTo(Set.of(FleetStack.S3));
        assertThat(stack.component(FleetStack.TRINO).dependencies())
                .isEqualTo(Set.of(FleetStack.CATALOG, FleetStack.S3));
        assertThat(new EmbeddedServers(SETTINGS, HOME).catalogDatabase()).isEqualTo(CatalogDatabase.sqliteFile());
        assertThat(stack.component(FleetStack.MAINTENANCE).dependencies()).isEqualTo(Set.of(FleetStack.CATALOG));
        assertThat(stack.component(FleetStack.EXPORTER).dependencies()).isEqualTo(Set.of(FleetStack.KAFKA_TOPICS));
        // Prometheus scrapes whatever is up, a component that is down shows as a down target; it waits for nothing,
        // not even Trino: the CA file its trino job trusts (read once, when it starts) exists before anything starts.
        assertThat(stack.component(FleetStack.PROMETHEUS).dependencies()).isEmpty();
        assertThat(SETTINGS.trinoSecrets().caCertificate()).isRegularFile();
        assertThat(stack.component(FleetStack.PROMETHEUS).endpoint())
                .isEqualTo("http://127.0.0.1:" + SETTINGS.port(StackPort.PROMETHEUS));
    }

    @Test
    void theCatalogWaitsForTheDatabaseOfTheProvider() {
        List<Component> servers = new ArrayList<>(new EmbeddedServers(SETTINGS, HOME).components());
        servers.add(ProcessComponent.builder("database")
                .command(() -> List.of("postgres"))
                .workingDirectory(Path.of("target"))
                .logFile(Path.of("target", "database.log"))
                .healthProbe(() -> true)
                .build());
        StackServers withDatabase = provider(servers, new CatalogDatabase(Map.of(), Set.of("database")));

        EmbeddedStack stack = FleetStack.create(SETTINGS, HOME, withDatabase);

        assertThat(stack.component(FleetStack.CATALOG).dependencies()).isEqualTo(Set.of(FleetStack.S3, "database"));
    }

    @Test
    void inClusterModeAJobManagerTaskManagersAndTheSubmittedJobTakeThePipelinesPlace() {
        StackSettings cluster = StackSettings.from(
                ConfigSource.of(Map.of(
                        StackSettings.FREE_PORTS, "true",
                        FleetStack.PROMETHEUS_EXECUTABLE, "/usr/bin/prometheus",
                        PipelineMode.KEY, "cluster",
                        FlinkClusterSettings.TASK_MANAGERS, "3")),
                Path.of("target", "data"));
        Set<String> embeddedPipelineDependencies =
                FleetStack.create(SETTINGS, HOME).component(FleetStack.PIPELINE).dependencies();

        EmbeddedStack stack = FleetStack.create(cluster, HOME);

        assertThat(stack.components())
                .extracting(Component::name)
                .contains(
                        FlinkClusterComponents.JOB_MANAGER,
                        "flink-taskmanager-1",
                        "flink-taskmanager-2",
                        "flink-taskmanager-3",
                        FleetStack.PIPELINE);
        assertThat(stack.component(FleetStack.PIPELINE)).isInstanceOf(ClusterJob.class);
        assertThat(stack.component(FlinkClusterComponents.JOB_MANAGER).dependencies())
                .as("checkpoints go to S3")
                .isEqualTo(Set.of(FleetStack.S3));
        assertThat(stack.component("flink-taskmanager-3").dependencies())
                .isEqualTo(Set.of(FlinkClusterComponents.JOB_MANAGER));
        assertThat(stack.component(FleetStack.PIPELINE).dependencies())
                .as("the job waits for what the embedded pipeline waits for, and for every TaskManager")
                .containsAll(embeddedPipelineDependencies)
                .contains("flink-taskmanager-1", "flink-taskmanager-2", "flink-taskmanager-3");
    }

    @Test
    void anUnknownPipelineModeIsRejectedWithTheChoices() {
        assertThatThrownBy(() -> StackSettings.from(
                                ConfigSource.of(Map.of(PipelineMode.KEY, "yarn")), Path.of("target", "data"))
                        .pipelineMode())
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid configuration stack.pipeline-mode = yarn: expected one of embedded, cluster");
        assertThat(SETTINGS.pipelineMode()).isEqualTo(PipelineMode.EMBEDDED);
        assertThat(StackSettings.pipelineMode(" Cluster ")).isEqualTo(PipelineMode.CLUSTER);
    }

    @Test
    void aProviderMissingAServerIsRejectedWithItsName() {
        List<Component> withoutTrino = new EmbeddedServers(SETTINGS, HOME)
                .components().stream()
                        .filter(component -> !component.name().equals(FleetStack.TRINO))
                        .toList();

        assertThatThrownBy(
                        () -> FleetStack.create(SETTINGS, HOME, provider(withoutTrino, CatalogDatabase.sqliteFile())))
                .hasMessage("dashboard depends on trino, which is not part of the stack");
    }

    private static StackServers provider(List<Component> components, CatalogDatabase database) {
        return new StackServers() {
            @Override
            public List<Component> components() {
                return components;
            }

            @Override
            public CatalogDatabase catalogDatabase() {
                return database;
            }
        };
    }
}
