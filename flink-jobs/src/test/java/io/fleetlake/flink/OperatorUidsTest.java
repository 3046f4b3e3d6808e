package io.fleetlake.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.runtime.ClusterConfiguration;
import io.fleetlake.flink.sinks.FleetTestTables;
import io.fleetlake.flink.sinks.IcebergTableSink;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamEdge;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.flink.CatalogLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * State is matched to operators by uid whenever the job restores a checkpoint or savepoint: after a failover, a
 * rescale, an upgrade. An operator whose uid changes, or that falls back to a generated one, loses its state there — the
 * Kafka offsets, the de-duplication memory, the pending Iceberg commits. These tests pin the uids of the production job
 * (its real sources and sinks, the Iceberg tables on a file-system catalog) to the committed list {@code
 * operator-uids.txt}, and prove that the job settings every entry point applies refuse an operator without an explicit
 * uid when the job graph is built.
 */
class OperatorUidsTest {
    private static final String COMMITTED_UIDS = "operator-uids.txt";

    @TempDir
    Path warehouse;

    @Test
    void everyOperatorOfTheProductionJobHasAnExplicitUidFromTheCommittedList() throws IOException {
        List<String> uids = productionGraph().getStreamNodes().stream()
                .map(StreamNode::getTransformationUID)
                .toList();

        assertThat(uids)
                .as("every operator has an explicit uid")
                .doesNotContainNull()
                .as("uids are unique")
                .doesNotHaveDuplicates()
                .as(
                        "the uids of the committed list %s: a checkpoint or savepoint of the current release maps onto"
                                + " them; add a new operator's uid there, never rename or remove one (a removed operator's"
                                + " uid goes to FleetPipelineJob.RETIRED_UIDS)",
                        COMMITTED_UIDS)
                .containsExactlyInAnyOrderElementsOf(committedUids())
                .doesNotContainAnyElementsOf(FleetPipelineJob.RETIRED_UIDS);
    }

    @Test
    void onlyTheExchangesTowardsRedisFlushOnATimer() {
        FleetPipelineConfig config =
                FleetPipelineConfig.from(ConfigSource.of(Map.of(FleetPipelineConfig.BUFFER_TIMEOUT, "25ms")));
        StreamGraph graph = productionGraph(config);

        Map<String, Long> timedExchanges = new TreeMap<>();
        for (StreamNode node : graph.getStreamNodes()) {
            for (StreamEdge edge : node.getOutEdges()) {
                if (edge.getBufferTimeout() >= 0) {
                    timedExchanges.merge(
                            node.getTransformationUID() + " -> "
                                    + graph.getStreamNode(edge.getTargetId()).getTransformationUID(),
                            edge.getBufferTimeout(),
                            Math::max);
                }
            }
        }

        assertThat(timedExchanges)
                .as("every other exchange is flushed when its buffer is full or by the checkpoint barrier")
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "event-time-watermarks -> " + FleetPipelineJob.VEHICLE_POSITIONS_UID,
                        25L,
                        "route-updates -> " + FleetPipelineJob.VEHICLE_POSITIONS_UID,
                        FleetPipelineJob.ROUTE_UPDATE_BUFFER_TIMEOUT.toMillis()));
    }

    @Test
    void anOperatorWithoutAnExplicitUidIsRefusedWhenTheJobIsBuilt() {
        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment(
                ClusterConfiguration.jobSettings(new Configuration(), config()));
        environment
                .fromData(1, 2, 3)
                .uid("numbers")
                .map(number -> number * 2)
                .name("doubled-without-uid")
                .sinkTo(new DiscardingSink<>())
                .uid("discard");

        assertThatThrownBy(environment::getStreamGraph)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("doubled-without-uid");
    }

    private StreamGraph productionGraph() {
        return productionGraph(config());
    }

    private StreamGraph productionGraph(FleetPipelineConfig config) {
        CatalogLoader catalog = CatalogLoader.hadoop(
                "fleet",
                new org.apache.hadoop.conf.Configuration(),
                Map.of(CatalogProperties.WAREHOUSE_LOCATION, warehouse.toUri().toString()));
        FleetTestTables.createAll(catalog);
        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment(
                ClusterConfiguration.jobSettings(new Configuration(), config));
        FleetPipeline.productionJob(
                        config,
                        IcebergTableSink.positions(catalog),
                        IcebergTableSink.rejectedPositions(catalog),
                        IcebergTableSink.vehicleMinutes(catalog))
                .addTo(environment);
        return environment.getStreamGraph();
    }

    private static FleetPipelineConfig config() {
        return FleetPipelineConfig.from(ConfigSource.empty());
    }

    private static List<String> committedUids() throws IOException {
        try (InputStream in = OperatorUidsTest.class.getResourceAsStream(COMMITTED_UIDS)) {
            assertThat(in).as(COMMITTED_UIDS).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .toList();
        }
    }
}
